//! A transparent proxy's own checks (`ConsulTransparentProxy.Validate`,
//! v1.8.0 nomad/structs/connect.go, from #20144): its excluded outbound
//! CIDRs parse as Go's `netip.ParsePrefix` parses them, its UID and
//! excluded UIDs as 16-bit unsigned numbers. One error is returned bare,
//! more as a multierror.

use serde_json::{Map, Value};

use super::json_map::{list, text};
use super::multierror::multierror;
use crate::model::go_quote;

/// The proxy's error, if any.
pub(crate) fn tproxy_error(tp: &Map<String, Value>) -> Option<String> {
    let mut errs = Vec::new();
    for cidr in list(tp, "ExcludeOutboundCIDRs")
        .iter()
        .filter_map(Value::as_str)
    {
        if let Err(e) = parse_prefix(cidr) {
            errs.push(format!(
                "could not parse transparent proxy excluded outbound CIDR as network prefix: netip.ParsePrefix({}): {e}",
                go_quote(cidr)
            ));
        }
    }
    let uid = text(tp, "UID");
    if !uid.is_empty()
        && let Err(e) = uid_error(&uid)
    {
        errs.push(format!(
            "transparent proxy block has invalid UID field: {e}"
        ));
    }
    for raw in list(tp, "ExcludeUIDs").iter().filter_map(Value::as_str) {
        if let Err(e) = uid_error(raw) {
            errs.push(format!(
                "transparent proxy block has invalid ExcludeUIDs field: {e}"
            ));
        }
    }
    match errs.len() {
        0 => None,
        1 => errs.pop(),
        _ => Some(multierror(&errs)),
    }
}

/// `strconv.ParseUint(s, 10, 16)`'s refusal, worded as Nomad wraps it.
fn uid_error(raw: &str) -> Result<(), String> {
    let why = if raw.is_empty() || !raw.bytes().all(|b| b.is_ascii_digit()) {
        "invalid syntax"
    } else if raw.parse::<u16>().is_err() {
        "value out of range"
    } else {
        return Ok(());
    };
    Err(format!("invalid user ID {}: {why}", go_quote(raw)))
}

/// `netip.ParsePrefix`'s reason to refuse `s`.
fn parse_prefix(s: &str) -> Result<(), String> {
    let Some(slash) = s.rfind('/') else {
        return Err("no '/'".into());
    };
    let (addr, bits) = (&s[..slash], &s[slash + 1..]);
    let max = parse_addr(addr)?;
    let bad_bits = || format!("bad bits after slash: {}", go_quote(bits));
    if bits.len() > 1 && !(b'1'..=b'9').contains(&bits.as_bytes()[0]) {
        return Err(bad_bits());
    }
    let n: i64 = bits.parse().map_err(|_| bad_bits())?;
    if !(0..=max).contains(&n) {
        return Err("prefix length out of range".into());
    }
    Ok(())
}

/// `netip.ParseAddr`'s reason to refuse `s`, or the address's bit length;
/// an IPv6 address with a zone is refused as `ParsePrefix` refuses it.
fn parse_addr(s: &str) -> Result<i64, String> {
    let fail = |msg: &str, at: Option<&str>| {
        let at = at
            .map(|a| format!(" (at {})", go_quote(a)))
            .unwrap_or_default();
        Err(format!("ParseAddr({}): {msg}{at}", go_quote(s)))
    };
    match s.bytes().find(|b| matches!(b, b'.' | b':' | b'%')) {
        Some(b'.') => ipv4(s).map_or_else(|(m, at)| fail(m, at), |()| Ok(32)),
        Some(b':') => match ipv6(s) {
            Ok(false) => Ok(128),
            Ok(true) => Err("IPv6 zones cannot be present in a prefix".into()),
            Err((m, at)) => fail(m, at),
        },
        Some(_) => fail("missing IPv6 address", None),
        None => fail("unable to parse IP", None),
    }
}

/// A refusal: Go's message and the rest of the input it stopped at.
type Refusal<'a> = (&'static str, Option<&'a str>);

/// Go's IPv6 parser (`netip.parseIPv6`): whether the address has a zone,
/// or why it is refused.
fn ipv6(input: &str) -> Result<bool, Refusal<'_>> {
    let (mut s, zone) = input
        .split_once('%')
        .map_or((input, None), |(a, z)| (a, Some(z)));
    if zone == Some("") {
        return Err(("zone must be a non-empty string", None));
    }
    let mut ellipsis = None;
    if let Some(rest) = s.strip_prefix("::") {
        ellipsis = Some(0);
        s = rest;
        if s.is_empty() {
            return Ok(zone.is_some());
        }
    }
    let mut i = 0;
    while i < 16 {
        let b = s.as_bytes();
        let (mut off, mut acc) = (0, 0u32);
        while let Some(d) = b.get(off).and_then(|&c| (c as char).to_digit(16)) {
            acc = (acc << 4) + d;
            if off > 3 {
                return Err(("each group must have 4 or less digits", Some(s)));
            }
            if acc > 0xffff {
                return Err(("IPv6 field has value >=2^16", Some(s)));
            }
            off += 1;
        }
        if off == 0 {
            return Err((
                "each colon-separated field must have at least one digit",
                Some(s),
            ));
        }
        if b.get(off) == Some(&b'.') {
            if ellipsis.is_none() && i != 12 {
                return Err((
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    Some(s),
                ));
            }
            if i + 4 > 16 {
                return Err((
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    Some(s),
                ));
            }
            ipv4(s)?;
            s = "";
            i += 4;
            break;
        }
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(("unexpected character, want colon", Some(s)));
        } else if s.len() == 1 {
            return Err(("colon must be followed by more characters", Some(s)));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(("multiple :: in address", Some(s)));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(("trailing garbage after address", Some(s)));
    }
    if i < 16 && ellipsis.is_none() {
        return Err(("address string too short", None));
    }
    if i == 16 && ellipsis.is_some() {
        return Err(("the :: must expand to at least one field of zeros", None));
    }
    Ok(zone.is_some())
}

/// Go's IPv4 field parser: its message and the rest of the input it stopped at.
fn ipv4(s: &str) -> Result<(), Refusal<'_>> {
    let b = s.as_bytes();
    let (mut val, mut digits, mut dots) = (0u32, 0, 0);
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && val == 0 {
                    return Err(("IPv4 field has octet with leading zero", None));
                }
                val = val * 10 + u32::from(c - b'0');
                digits += 1;
                if val > 255 {
                    return Err(("IPv4 field has value >255", None));
                }
            }
            b'.' => {
                if i == 0 || i == b.len() - 1 || b[i - 1] == b'.' {
                    return Err(("IPv4 field must have at least one digit", Some(&s[i..])));
                }
                if dots == 3 {
                    return Err(("IPv4 address too long", None));
                }
                dots += 1;
                val = 0;
                digits = 0;
            }
            _ => return Err(("unexpected character", Some(&s[i..]))),
        }
    }
    if dots < 3 {
        return Err(("IPv4 address too short", None));
    }
    Ok(())
}
