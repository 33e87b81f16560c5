//! `ComparableResources`: the dimensions fit compares, summed over tasks
//! and allocations.

use std::collections::BTreeSet;

use super::shortfall::Shortfall;

/// CPU shares and reserved cores, memory and disk, as Nomad adds and
/// compares them (`nomad/structs/structs.go:3827-3900` and `:4007-4022` at
/// 1.3.0). Networks and devices are counted by their own indexes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Comparable {
    /// MHz.
    pub cpu_shares: i64,
    pub cores: BTreeSet<u16>,
    pub memory_mb: i64,
    /// The oversubscription ceiling: a task without one counts its
    /// `memory_mb` here when added.
    pub memory_max_mb: i64,
    pub disk_mb: i64,
}

impl Comparable {
    /// `Add`: shares, memory and disk add up, cores unite. Amounts saturate
    /// where Go's would wrap: no real node comes near.
    pub fn add(&mut self, o: &Comparable) {
        self.add_cpu(o);
        self.memory_mb = self.memory_mb.saturating_add(o.memory_mb);
        let ceiling = if o.memory_max_mb != 0 {
            o.memory_max_mb
        } else {
            o.memory_mb
        };
        self.memory_max_mb = self.memory_max_mb.saturating_add(ceiling);
        self.disk_mb = self.disk_mb.saturating_add(o.disk_mb);
    }

    /// `AllocatedCpuResources.Add`.
    pub fn add_cpu(&mut self, o: &Comparable) {
        self.cpu_shares = self.cpu_shares.saturating_add(o.cpu_shares);
        self.cores.extend(o.cores.iter().copied());
    }

    /// `Max`: the larger of each; the longer core set wins, the first on a tie.
    pub fn max(&mut self, o: &Comparable) {
        self.cpu_shares = self.cpu_shares.max(o.cpu_shares);
        if o.cores.len() > self.cores.len() {
            self.cores = o.cores.clone();
        }
        self.memory_mb = self.memory_mb.max(o.memory_mb);
        self.memory_max_mb = self.memory_max_mb.max(o.memory_max_mb);
    }

    /// `Subtract`, as a node's reservation leaves its capacity.
    pub fn subtract(&mut self, o: &Comparable) {
        self.cpu_shares = self.cpu_shares.saturating_sub(o.cpu_shares);
        self.cores.retain(|c| !o.cores.contains(c));
        self.memory_mb = self.memory_mb.saturating_sub(o.memory_mb);
        self.disk_mb = self.disk_mb.saturating_sub(o.disk_mb);
    }

    /// `Superset`: whether these (available) resources hold `used`, else
    /// the first dimension that falls short, in Nomad's order. Cores are
    /// compared only on a node that has reservable cores.
    pub fn superset(&self, used: &Comparable) -> Result<(), Shortfall> {
        if self.cpu_shares < used.cpu_shares {
            return Err(Shortfall::cpu(
                used.cpu_shares.saturating_sub(self.cpu_shares),
            ));
        }
        if !self.cores.is_empty() && !used.cores.is_subset(&self.cores) {
            return Err(Shortfall::cores(used.cores.difference(&self.cores).count()));
        }
        if self.memory_mb < used.memory_mb {
            return Err(Shortfall::memory(
                used.memory_mb.saturating_sub(self.memory_mb),
            ));
        }
        if self.disk_mb < used.disk_mb {
            return Err(Shortfall::disk(used.disk_mb.saturating_sub(self.disk_mb)));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(cpu: i64, cores: &[u16], mem: i64, max: i64, disk: i64) -> Comparable {
        Comparable {
            cpu_shares: cpu,
            cores: cores.iter().copied().collect(),
            memory_mb: mem,
            memory_max_mb: max,
            disk_mb: disk,
        }
    }

    /// A task without a ceiling adds its memory to the ceiling
    /// (`AllocatedMemoryResources.Add`).
    #[test]
    fn memory_without_a_ceiling_adds_to_the_ceiling() {
        let mut a = r(0, &[], 100, 0, 0);
        a.add(&r(0, &[], 200, 0, 0));
        assert_eq!((a.memory_mb, a.memory_max_mb), (300, 200));
        a.add(&r(0, &[], 100, 400, 0));
        assert_eq!((a.memory_mb, a.memory_max_mb), (400, 600));
    }

    #[test]
    fn superset_names_the_first_short_dimension_and_by_how_much() {
        let avail = r(2000, &[0, 1], 1024, 0, 500);
        assert_eq!(avail.superset(&r(2000, &[1], 1024, 0, 500)), Ok(()));
        assert_eq!(
            avail.superset(&r(2500, &[], 2048, 0, 0)).unwrap_err(),
            Shortfall::cpu(500)
        );
        assert_eq!(
            avail.superset(&r(100, &[1, 2, 3], 0, 0, 0)).unwrap_err(),
            Shortfall::cores(2)
        );
        assert_eq!(
            avail.superset(&r(100, &[], 1236, 0, 600)).unwrap_err(),
            Shortfall::memory(212)
        );
        assert_eq!(
            avail.superset(&r(100, &[], 0, 0, 600)).unwrap_err(),
            Shortfall::disk(100)
        );
        let coreless = r(2000, &[], 1024, 0, 500);
        assert_eq!(coreless.superset(&r(0, &[7], 0, 0, 0)), Ok(()));
    }

    /// `TestComparableResources_Superset` (nomad/structs/structs_test.go,
    /// 2.0.5).
    #[test]
    fn comparable_resources_superset_v2_0_5() {
        let base = r(4000, &[0, 1, 2, 3], 4096, 0, 10000);
        assert_eq!(base.superset(&r(1000, &[0], 0, 0, 0)), Ok(()));
        assert_eq!(base.superset(&r(4000, &[0, 1, 2, 3], 0, 0, 0)), Ok(()));
        let dim = |used: Comparable| base.superset(&used).unwrap_err().dimension;
        assert_eq!(dim(r(5000, &[], 0, 0, 0)), "cpu");
        assert_eq!(dim(r(1000, &[3, 4], 0, 0, 0)), "cores");
    }

    #[test]
    fn max_keeps_the_longer_core_set_and_the_larger_amounts() {
        let mut a = r(100, &[1], 50, 80, 0);
        a.max(&r(50, &[2, 3], 100, 60, 0));
        assert_eq!(a, r(100, &[2, 3], 100, 80, 0));
        a.max(&r(50, &[4, 5], 0, 0, 0));
        assert_eq!(a.cores, [2, 3].into_iter().collect());
    }
}
