//! A group's first ranking read from the cluster's board for its shape
//! ([`crate::placement::board`]): the class checks run as a scan runs
//! them, the untouched nodes of eligible classes take the board's plain
//! score, and only the nodes the job's allocations or its plan touch are
//! judged here.

use std::sync::Arc;

use super::super::board::Board;
use super::super::ranked::RankIndex;
use super::group::Group;
use super::state::Placer;
use crate::fit::Packed;
use crate::model::value_hash;

impl<'a> Placer<'a> {
    /// Sets the group's ranking from its board where the group's choice
    /// does not depend on anything a board leaves out (no recording, no
    /// preferred node, no spread round, an ask the same on every node and
    /// node use counted under the cluster's rules). The class checks'
    /// counts are kept for a scan of the same placement.
    pub(super) fn board_index(&mut self, g: &mut Group<'a>, name: &str) {
        if !g.indexable
            || g.index.is_some()
            || g.classes.is_empty()
            || g.free.is_none()
            || !self.shared_use
            || self.recorder.is_some()
        {
            return;
        }
        let Some(board) = self.board(g) else {
            return;
        };
        let mut metric = self.fresh_metric();
        self.by_class(g, name, &mut metric);
        let touched = self.touched(g);
        let mut index = RankIndex::on(board);
        for i in touched {
            let score = self.unpenalised_score(g, i);
            if !index.set(i, score) {
                g.indexable = false;
                g.sorted = Some(metric);
                return;
            }
        }
        index.synced = self.log.len();
        g.index = Some(index);
        g.sorted = Some(metric);
    }

    /// The open nodes where the job's state differs from the snapshot's,
    /// in index order: those it runs on and those its plan changed, which
    /// a board does not stand for.
    pub(super) fn touched(&self, g: &Group<'a>) -> Vec<usize> {
        let mut t: Vec<usize> = self
            .own
            .keys()
            .chain(self.changed.keys())
            .copied()
            .collect();
        t.sort_unstable();
        t.dedup();
        t.retain(|&i| self.is_open(g, i));
        t
    }

    /// The board of the group's shape, built on first need from every
    /// ready node as the snapshot leaves it.
    fn board(&self, g: &mut Group<'a>) -> Option<Arc<Board>> {
        let free = g.free.as_ref()?;
        let shape = value_hash(&(&free.held, free.network, g.ranking.shape()));
        let cluster = self.cluster;
        let rules = &self.setup.settings.rules;
        let ranking = &mut g.ranking;
        cluster.boards.get(shape, cluster.ready.len(), || {
            let scores = cluster.ready.iter().filter_map(|&(i, _)| {
                let used = cluster.fit_untouched(i, free, rules).ok()?;
                let used = Packed {
                    used,
                    devices: None,
                };
                let parts = ranking.score(
                    cluster.nodes[i],
                    &cluster.capacities[i],
                    &used,
                    0,
                    false,
                    None,
                );
                Some((i, parts.final_score))
            });
            Board::of(scores.collect::<Vec<_>>())
        })
    }
}
