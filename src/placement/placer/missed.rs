//! A failed placement of a group ranked from its board, counted without
//! judging every candidate: the board's misses give the untouched nodes'
//! verdicts per bucket, and only the nodes the job's allocations or its
//! plan touch are judged again, as the ranking itself does.

use super::super::failure::Failure;
use super::super::misses::Misses;
use super::group::{ELIGIBLE, Group};
use super::judge::Verdict;
use super::setup::Select;
use super::state::Placer;
use crate::fit::Shortfall;

impl<'a> Placer<'a> {
    /// The failure a scan of every candidate would report once the
    /// group's board-backed ranking found no node: the same metrics and
    /// nearest miss. `None` where the group has no board or the misses do
    /// not account for every candidate; the caller then scans.
    pub(super) fn board_failure(
        &mut self,
        g: &mut Group<'a>,
        select: &Select<'_>,
    ) -> Option<Box<Failure>> {
        let board = g.index.as_ref()?.board()?.clone();
        let free = g.free.as_ref()?;
        let cluster = self.cluster;
        let rules = self.setup.settings.rules;
        let misses = board.misses.get_or_init(|| {
            if !cluster.boards.reserve(cluster.ready.len()) {
                return None;
            }
            let groups = cluster.group_classes.iter();
            Some(Misses::of(
                groups.map(|bs| bs.iter().map(|b| b.nodes.as_slice()).collect()),
                |i| cluster.nodes[i].node_class.as_str(),
                |i| cluster.fit_untouched(i, free, &rules).map(drop),
            ))
        });
        let misses = misses.as_ref()?;
        let mut metric = self.fresh_metric();
        match g.sorted.take() {
            Some(counted) => metric = counted,
            None => self.by_class(g, select.name, &mut metric),
        }
        let classes = metric.clone();
        let touched = self.touched(g);
        let mut fits = 0;
        let mut nearest: Vec<(usize, Shortfall)> = Vec::new();
        for &t in &self.target.targeted {
            let buckets = cluster.group_classes[t as usize].iter();
            for (b, m) in buckets.zip(&misses.buckets[t as usize]) {
                if g.classes[b.class as usize] != ELIGIBLE {
                    continue;
                }
                metric.nodes_evaluated += b.nodes.len() as u64;
                metric.merge(&m.metric);
                fits += m.fits;
                let first = m
                    .nearest
                    .iter()
                    .find(|(_, i)| touched.binary_search(i).is_err());
                if let Some(short) = first.and_then(|&(_, i)| Some((i, misses.shortfall(i)?))) {
                    nearest.push(short);
                }
            }
        }
        let mut accounted = true;
        for &i in &touched {
            let class = cluster.nodes[i].node_class.as_str();
            match misses.shortfall(i) {
                Some(short) if !short.unrecorded => metric.unexhaust_node(class, &short.dimension),
                Some(_) => {}
                None => fits -= 1,
            }
            match self.judge(g, select.name, i) {
                Verdict::Filtered(why) => metric.filter_node(class, &why),
                Verdict::Exhausted(short) => {
                    if !short.unrecorded {
                        metric.exhaust_node(class, &short.dimension);
                    }
                    nearest.push((i, short));
                }
                Verdict::Ends(_) | Verdict::Fits { .. } => accounted = false,
            }
        }
        if !accounted || fits != 0 {
            g.sorted = Some(classes);
            return None;
        }
        let mut failure = Failure::default();
        nearest.sort_unstable_by_key(|(i, _)| *i);
        for (i, short) in nearest {
            failure.consider(i, short);
        }
        failure.count = 1;
        failure.metric = metric;
        Some(Box::new(failure))
    }
}
