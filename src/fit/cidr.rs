//! The addresses of a CIDR block, as `NetworkIndex.yieldIP` walks them.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The addresses of a CIDR block in order, from its network address
/// (`yieldIP`); none for a block that does not parse.
pub fn cidr_addresses(cidr: &str) -> Box<dyn Iterator<Item = String>> {
    let Some((ip, bits)) = cidr.split_once('/') else {
        return Box::new(std::iter::empty());
    };
    match (ip.parse::<IpAddr>(), bits.parse::<u32>()) {
        (Ok(IpAddr::V4(ip)), Ok(bits)) if bits <= 32 => {
            let mask = u32::MAX.checked_shl(32 - bits).unwrap_or(0);
            let start = u32::from(ip) & mask;
            let end = start | !mask;
            Box::new((start..=end).map(|a| Ipv4Addr::from(a).to_string()))
        }
        (Ok(IpAddr::V6(ip)), Ok(bits)) if bits <= 128 => {
            let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
            let start = u128::from(ip) & mask;
            let end = start | !mask;
            Box::new((start..=end).map(|a| Ipv6Addr::from(a).to_string()))
        }
        _ => Box::new(std::iter::empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TestNetworkIndex_yieldIP` (nomad/structs/network_test.go, 1.3.0):
    /// a /30 yields its four addresses from the network address on.
    #[test]
    fn network_index_yield_ip_v1_3_0() {
        let all: Vec<String> = cidr_addresses("192.168.0.100/30").collect();
        assert_eq!(
            all,
            [
                "192.168.0.100",
                "192.168.0.101",
                "192.168.0.102",
                "192.168.0.103"
            ]
        );
        assert_eq!(cidr_addresses("::1/128").collect::<Vec<_>>(), ["::1"]);
        assert_eq!(cidr_addresses("10.0.0.1").count(), 0);
        assert_eq!(
            cidr_addresses("10.0.0.0/8").nth(70000).as_deref(),
            Some("10.1.17.112")
        );
    }
}
