//! Go's parsers as Nomad's validation meets them, pinned to what Go
//! prints: `url.Parse` on an HTTP check's path and `netip.ParsePrefix` on a
//! transparent proxy's excluded CIDRs. The expected values were printed by
//! a standalone Go 1.27.3 program (standard library only) on these inputs.

use serde_json::json;

use super::super::go_url::{UrlRead, url_read};
use super::super::tproxy_validate::tproxy_error;

#[test]
fn go_url_parse_reads_check_paths_as_go_does() {
    use UrlRead::{Absolute, Refused, Relative};
    let cases = [
        ("/health", Relative),
        ("health", Relative),
        ("http://x/health", Absolute),
        ("a:b", Absolute),
        ("1a:b", Refused),
        (":x", Refused),
        ("/a:b", Relative),
        ("a/b:c", Relative),
        ("%zz", Refused),
        ("/a%2", Refused),
        ("/a%41", Relative),
        ("/a?%zz", Relative),
        ("/a#%zz", Refused),
        ("/a#ok", Relative),
        ("*", Relative),
        ("//host/x", Relative),
        ("//ho st/x", Refused),
        ("//host:80/x", Relative),
        ("//host:8a/x", Refused),
        ("//u@host/x", Relative),
        ("//u ser@host/x", Refused),
        ("///x", Relative),
        ("/x?y?", Relative),
        ("x?a:b", Relative),
        ("a:b#c", Absolute),
        ("\u{1}", Refused),
        ("/a b", Relative),
        ("", Relative),
        ("?", Relative),
        ("#", Relative),
        ("//[::1]/x", Relative),
        ("//[::1/x", Refused),
        ("+a:b", Refused),
        ("a+b:c", Absolute),
        ("/ok%20", Relative),
        ("/%e2%82%ac", Relative),
        ("//h%41/x", Refused),
        ("//h%c3/x", Relative),
        ("mailto:x", Absolute),
        ("//h/%zz", Refused),
        ("//h#%zz", Refused),
    ];
    for (path, want) in cases {
        assert_eq!(url_read(path), want, "{path:?}");
    }
}

#[test]
fn go_netip_parse_prefix_refuses_cidrs_in_go_words() {
    let cases = [
        ("10.0.0.0/8", ""),
        ("::1/128", ""),
        (
            "fe80::1%eth0/64",
            "netip.ParsePrefix(\"fe80::1%eth0/64\"): IPv6 zones cannot be present in a prefix",
        ),
        (
            "fe80::1%/64",
            "netip.ParsePrefix(\"fe80::1%/64\"): ParseAddr(\"fe80::1%\"): zone must be a non-empty string",
        ),
        (
            "1:2:3:4:5:6:7:8:9/64",
            "netip.ParsePrefix(\"1:2:3:4:5:6:7:8:9/64\"): ParseAddr(\"1:2:3:4:5:6:7:8:9\"): trailing garbage after address (at \"9\")",
        ),
        (
            "12345::/64",
            "netip.ParsePrefix(\"12345::/64\"): ParseAddr(\"12345::\"): each group must have 4 or less digits (at \"12345::\")",
        ),
        (
            "1::2::3/64",
            "netip.ParsePrefix(\"1::2::3/64\"): ParseAddr(\"1::2::3\"): multiple :: in address (at \":3\")",
        ),
        (
            ":1/64",
            "netip.ParsePrefix(\":1/64\"): ParseAddr(\":1\"): each colon-separated field must have at least one digit (at \":1\")",
        ),
        (
            "1:/64",
            "netip.ParsePrefix(\"1:/64\"): ParseAddr(\"1:\"): colon must be followed by more characters (at \":\")",
        ),
        (
            "1:2x::/64",
            "netip.ParsePrefix(\"1:2x::/64\"): ParseAddr(\"1:2x::\"): unexpected character, want colon (at \"x::\")",
        ),
        ("::ffff:1.2.3.4/128", ""),
        (
            "1:2:3:4:5:6:7:1.2.3.4/64",
            "netip.ParsePrefix(\"1:2:3:4:5:6:7:1.2.3.4/64\"): ParseAddr(\"1:2:3:4:5:6:7:1.2.3.4\"): embedded IPv4 address must replace the final 2 fields of the address (at \"1.2.3.4\")",
        ),
        ("1:2:3:4:5:6:1.2.3.4/96", ""),
        (
            "1::1.2.3/96",
            "netip.ParsePrefix(\"1::1.2.3/96\"): ParseAddr(\"1::1.2.3\"): IPv4 address too short",
        ),
        (
            "1::1.2.3.04/96",
            "netip.ParsePrefix(\"1::1.2.3.04/96\"): ParseAddr(\"1::1.2.3.04\"): IPv4 field has octet with leading zero",
        ),
        (
            "1:2:3:4:5:6:7/64",
            "netip.ParsePrefix(\"1:2:3:4:5:6:7/64\"): ParseAddr(\"1:2:3:4:5:6:7\"): address string too short",
        ),
        (
            "1:2:3:4:5:6:7:8::/64",
            "netip.ParsePrefix(\"1:2:3:4:5:6:7:8::/64\"): ParseAddr(\"1:2:3:4:5:6:7:8::\"): the :: must expand to at least one field of zeros",
        ),
        ("::1.2.3.4/96", ""),
        ("1:2:3:4:5:6:7:8/64", ""),
        (
            "1.2.3.4%x/8",
            "netip.ParsePrefix(\"1.2.3.4%x/8\"): ParseAddr(\"1.2.3.4%x\"): unexpected character (at \"%x\")",
        ),
        (
            "%x/8",
            "netip.ParsePrefix(\"%x/8\"): ParseAddr(\"%x\"): missing IPv6 address",
        ),
        (
            "x/8",
            "netip.ParsePrefix(\"x/8\"): ParseAddr(\"x\"): unable to parse IP",
        ),
        (
            "1.2.3.4/33",
            "netip.ParsePrefix(\"1.2.3.4/33\"): prefix length out of range",
        ),
        (
            "1.2.3.4/08",
            "netip.ParsePrefix(\"1.2.3.4/08\"): bad bits after slash: \"08\"",
        ),
        (
            "::/-1",
            "netip.ParsePrefix(\"::/-1\"): bad bits after slash: \"-1\"",
        ),
        (
            "::1:/64",
            "netip.ParsePrefix(\"::1:/64\"): ParseAddr(\"::1:\"): colon must be followed by more characters (at \":\")",
        ),
        (
            "1:2::3:4:5:6:7:8/64",
            "netip.ParsePrefix(\"1:2::3:4:5:6:7:8/64\"): ParseAddr(\"1:2::3:4:5:6:7:8\"): the :: must expand to at least one field of zeros",
        ),
        (
            "1::2:3:4:5:6:7:1.2.3.4/96",
            "netip.ParsePrefix(\"1::2:3:4:5:6:7:1.2.3.4/96\"): ParseAddr(\"1::2:3:4:5:6:7:1.2.3.4\"): too many hex fields to fit an embedded IPv4 at the end of the address (at \"1.2.3.4\")",
        ),
        (
            "12:34567::/64",
            "netip.ParsePrefix(\"12:34567::/64\"): ParseAddr(\"12:34567::\"): each group must have 4 or less digits (at \"34567::\")",
        ),
        (
            "1:2:3:4:5:6:7:8:/64",
            "netip.ParsePrefix(\"1:2:3:4:5:6:7:8:/64\"): ParseAddr(\"1:2:3:4:5:6:7:8:\"): colon must be followed by more characters (at \":\")",
        ),
        (
            "::g/64",
            "netip.ParsePrefix(\"::g/64\"): ParseAddr(\"::g\"): each colon-separated field must have at least one digit (at \"g\")",
        ),
        (
            "1.2.3.4.5/8",
            "netip.ParsePrefix(\"1.2.3.4.5/8\"): ParseAddr(\"1.2.3.4.5\"): IPv4 address too long",
        ),
        (
            "256.0.0.0/8",
            "netip.ParsePrefix(\"256.0.0.0/8\"): ParseAddr(\"256.0.0.0\"): IPv4 field has value >255",
        ),
    ];
    for (cidr, want) in cases {
        let tp = json!({"ExcludeOutboundCIDRs": [cidr]});
        let got = tproxy_error(tp.as_object().unwrap());
        let want = (!want.is_empty()).then(|| {
            format!(
                "could not parse transparent proxy excluded outbound CIDR as network prefix: {want}"
            )
        });
        assert_eq!(got, want, "{cidr:?}");
    }
}
