//! Sets of ports on one address, and the port-range syntax of client
//! configurations.

use std::collections::BTreeSet;

/// One past the highest port (`MaxValidPort`).
pub const PORT_LIMIT: i64 = 65536;

/// Ports per block of a [`PortSet`].
const BLOCK_PORTS: i64 = 1024;

/// The ports in use on one address, as Nomad's bitmap of all 65536, kept
/// in blocks of 1024 made on first use: a node's index is built once and
/// copied for each plan that places on it, and most addresses use a few
/// ports of one or two blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortSet(Vec<Option<Box<[u64; 16]>>>);

impl PortSet {
    /// Whether `port` is in use; a port out of range never is.
    pub fn contains(&self, port: i64) -> bool {
        (0..PORT_LIMIT).contains(&port)
            && self
                .0
                .get((port / BLOCK_PORTS) as usize)
                .and_then(Option::as_ref)
                .is_some_and(|b| b[(port % BLOCK_PORTS / 64) as usize] & (1 << (port % 64)) != 0)
    }

    /// Marks `port` used; a port out of range is ignored (callers refuse it
    /// first, as Nomad does).
    pub fn insert(&mut self, port: i64) {
        if (0..PORT_LIMIT).contains(&port) {
            let block = (port / BLOCK_PORTS) as usize;
            if self.0.len() <= block {
                self.0.resize(block + 1, None);
            }
            let bits = self.0[block].get_or_insert_with(|| Box::new([0; 16]));
            bits[(port % BLOCK_PORTS / 64) as usize] |= 1 << (port % 64);
        }
    }

    /// The lowest port of `min..=max` that is free here and not
    /// `excluded`.
    pub fn lowest_free(&self, min: i64, max: i64, excluded: impl Fn(i64) -> bool) -> Option<i64> {
        let max = max.min(PORT_LIMIT - 1);
        let mut from = min.max(0);
        while let Some(p) = self.next_free(from, max) {
            if !excluded(p) {
                return Some(p);
            }
            from = p + 1;
        }
        None
    }

    /// The lowest port of `from..=to` not in use, a word of 64 ports at a
    /// time; a block never used is free throughout.
    fn next_free(&self, from: i64, to: i64) -> Option<i64> {
        let mut p = from;
        while p <= to {
            let block = (p / BLOCK_PORTS) as usize;
            let Some(Some(bits)) = self.0.get(block) else {
                return Some(p);
            };
            let base = block as i64 * BLOCK_PORTS;
            let mut word = ((p - base) / 64) as usize;
            let mut free = !bits[word] & (!0u64 << (p % 64));
            loop {
                if free != 0 {
                    let q = base + word as i64 * 64 + i64::from(free.trailing_zeros());
                    return (q <= to).then_some(q);
                }
                word += 1;
                if word == bits.len() {
                    break;
                }
                free = !bits[word];
            }
            p = base + BLOCK_PORTS;
        }
        None
    }
}

/// `ParsePortRanges`: "80,100-120, 150" as a set of ports; an error names
/// what does not parse.
pub fn parse_port_ranges(spec: &str) -> Result<BTreeSet<i64>, String> {
    let mut ports = BTreeSet::new();
    if spec.is_empty() {
        return Ok(ports);
    }
    let number = |s: &str| {
        s.trim()
            .parse::<i64>()
            .map_err(|_| format!("invalid port number {s:?}"))
    };
    let valid = |p: i64| {
        if p <= 0 {
            Err("port must be > 0".to_string())
        } else if p > PORT_LIMIT {
            Err(format!("port must be < {PORT_LIMIT} but found {p}"))
        } else {
            Ok(p)
        }
    };
    for part in spec.split(',') {
        let bounds: Vec<&str> = part.trim().split('-').collect();
        match bounds[..] {
            [one] => {
                ports.insert(valid(number(one)?)?);
            }
            [start, end] => {
                let (start, end) = (number(start)?, number(end)?);
                if end < start {
                    return Err(format!(
                        "invalid range: ending value ({end}) less than starting ({start}) value"
                    ));
                }
                valid(start)?;
                valid(end)?;
                ports.extend(start..=end);
            }
            _ => {
                return Err("can only parse single port numbers or port ranges \
                     (ex. 80,100-120,150)"
                    .to_string());
            }
        }
    }
    Ok(ports)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TestParsePortRanges` (nomad/structs/funcs_test.go, 1.3.0): what
    /// does not parse, with Nomad's words where they are not Go's parser's.
    #[test]
    fn parse_port_ranges_v1_3_0() {
        assert!(parse_port_ranges("-1").is_err());
        let err = |s: &str| parse_port_ranges(s).unwrap_err();
        assert_eq!(err("0"), "port must be > 0");
        assert_eq!(err("1-65537"), "port must be < 65536 but found 65537");
        assert_eq!(
            err("9223372036854775807"),
            "port must be < 65536 but found 9223372036854775807"
        );
    }

    #[test]
    fn port_ranges_parse_into_a_set() {
        let ok = |s: &str| {
            parse_port_ranges(s)
                .unwrap()
                .into_iter()
                .collect::<Vec<_>>()
        };
        assert_eq!(ok("3,1,2"), [1, 2, 3]);
        assert_eq!(ok("1, 3-5, 7"), [1, 3, 4, 5, 7]);
        assert_eq!(ok("1,1"), [1]);
        assert!(ok("").is_empty());
        for bad in ["1,a", "1-", "5-1", "1-2-3"] {
            assert!(parse_port_ranges(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_port_set_finds_the_lowest_free_port_outside_exclusions() {
        let mut s = PortSet::default();
        s.insert(20000);
        s.insert(65535);
        s.insert(70000);
        assert!(s.contains(20000) && s.contains(65535) && !s.contains(70000));
        let also = |p: i64| p == 20001;
        assert_eq!(s.lowest_free(20000, 20005, also), Some(20002));
        assert_eq!(s.lowest_free(20000, 20001, also), None);
    }

    /// The word-at-a-time search finds the port a walk one port at a time
    /// finds, across words, blocks, absent blocks and the range's ends.
    #[test]
    fn the_lowest_free_port_is_the_one_a_walk_port_by_port_finds() {
        let mut s = PortSet::default();
        for p in (19990..21100).chain(22000..22048).chain(30000..31024) {
            s.insert(p);
        }
        s.insert(65534);
        let walk = |min: i64, max: i64, ex: &dyn Fn(i64) -> bool| {
            (min.max(0)..=max.min(PORT_LIMIT - 1)).find(|p| !s.contains(*p) && !ex(*p))
        };
        let none = |_: i64| false;
        let some = |p: i64| p == 21100 || p == 31024 || p % 7 == 0;
        for (min, max) in [
            (20000, 32000),
            (20000, 21099),
            (20000, 21100),
            (21990, 22100),
            (30000, 31023),
            (30000, 32000),
            (-5, 10),
            (65533, 70000),
            (65534, 65534),
            (100, 50),
            (22047, 22048),
        ] {
            assert_eq!(s.lowest_free(min, max, none), walk(min, max, &none));
            assert_eq!(s.lowest_free(min, max, some), walk(min, max, &some));
        }
        assert_eq!(s.lowest_free(20000, 32000, none), Some(21100));
        assert_eq!(s.lowest_free(20000, 32000, some), Some(21101));
    }
}
