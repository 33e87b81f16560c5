//! Whether Go's `url.Parse` refuses a string, or reads a scheme in it, as
//! Nomad's HTTP check validation asks (`http type must have a valid http
//! path`, `... relative http path`): control characters, the scheme
//! (`1a:b` and `:x` are refused), a colon in a scheme-less first segment,
//! `%` escapes in the path and fragment (not the query), and a `//host`
//! authority's user info, port and host characters. A bracketed host is
//! taken as Go 1.17 to 1.21 took it: the brackets closed and the port
//! digits, its address not parsed.

/// How `url.Parse` reads a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UrlRead {
    /// It has a scheme (`IsAbs`).
    Absolute,
    /// No scheme.
    Relative,
    /// `url.Parse` returns an error.
    Refused,
}

/// `url.Parse(raw)` as [`UrlRead`].
pub(crate) fn url_read(raw: &str) -> UrlRead {
    let (head, fragment) = raw.split_once('#').unwrap_or((raw, ""));
    match parse(head) {
        Some(_) if unescape(fragment, Mode::Other).is_none() => UrlRead::Refused,
        Some(true) => UrlRead::Absolute,
        Some(false) => UrlRead::Relative,
        None => UrlRead::Refused,
    }
}

/// Whether `raw` (no fragment) has a scheme; `None` when Go refuses it.
fn parse(raw: &str) -> Option<bool> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return None;
    }
    if raw == "*" {
        return Some(false);
    }
    let (scheme, rest) = scheme(raw)?;
    let rest = if rest.ends_with('?') && rest.matches('?').count() == 1 {
        &rest[..rest.len() - 1]
    } else {
        rest.split_once('?').map_or(rest, |(before, _)| before)
    };
    let absolute = !scheme.is_empty();
    if !rest.starts_with('/') {
        if absolute {
            return Some(true);
        }
        if rest.split('/').next().is_some_and(|s| s.contains(':')) {
            return None;
        }
    }
    let mut path = rest;
    if (absolute || !rest.starts_with("///")) && rest.starts_with("//") {
        let after = &rest[2..];
        let (authority, p) = after.find('/').map_or((after, ""), |i| after.split_at(i));
        authority_ok(authority).then_some(())?;
        path = p;
    }
    unescape(path, Mode::Other)?;
    Some(absolute)
}

/// Go's `getScheme`: the scheme (empty when there is none) and the rest.
fn scheme(raw: &str) -> Option<(&str, &str)> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return None,
            b':' => return Some((&raw[..i], &raw[i + 1..])),
            _ => return Some(("", raw)),
        }
    }
    Some(("", raw))
}

/// Go's `parseAuthority`: user info of allowed characters, then the host.
fn authority_ok(authority: &str) -> bool {
    let (user, host) = authority
        .rsplit_once('@')
        .map_or((None, authority), |(u, h)| (Some(u), h));
    if !host_ok(host) {
        return false;
    }
    user.is_none_or(|u| {
        u.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-._:~!$&'()*+,;=%@".contains(&c))
            && unescape(u, Mode::Other).is_some()
    })
}

/// Go's `parseHost`: a bracketed literal closed and followed by an
/// optional port, else an optional port after the last colon; then the
/// host's escapes and characters.
fn host_ok(host: &str) -> bool {
    let port_ok = |p: &str| {
        p.is_empty()
            || p.strip_prefix(':')
                .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
    };
    if host.starts_with('[') {
        let Some(close) = host.rfind(']') else {
            return false;
        };
        if !port_ok(&host[close + 1..]) {
            return false;
        }
        return match host[..close].find("%25") {
            Some(zone) => {
                unescape(&host[..zone], Mode::Host).is_some()
                    && unescape(&host[zone..close], Mode::Zone).is_some()
                    && unescape(&host[close..], Mode::Host).is_some()
            }
            None => unescape(host, Mode::Host).is_some(),
        };
    }
    if let Some(i) = host.rfind(':')
        && !port_ok(&host[i..])
    {
        return false;
    }
    unescape(host, Mode::Host).is_some()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Host,
    Zone,
    /// The path, fragment and user info, where only `%` escapes are read.
    Other,
}

/// Go's `unescape` as a check: `%` and two hex digits (in a host only
/// for non-ASCII bytes or `%25`; in a zone not for a character a host
/// must escape), and in a host or zone only the characters Go allows.
fn unescape(s: &str, mode: Mode) -> Option<()> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |k: usize| b.get(k).copied().filter(u8::is_ascii_hexdigit);
            let (hi, lo) = (hex(i + 1)?, hex(i + 2)?);
            let value = (unhex(hi) << 4) | unhex(lo);
            let percent = &s[i..i + 3] == "%25";
            if mode == Mode::Host && unhex(hi) < 8 && !percent {
                return None;
            }
            if mode == Mode::Zone && !percent && value != b' ' && host_escapes(value) {
                return None;
            }
            i += 3;
        } else {
            if matches!(mode, Mode::Host | Mode::Zone) && b[i] < 0x80 && host_escapes(b[i]) {
                return None;
            }
            i += 1;
        }
    }
    Some(())
}

fn unhex(c: u8) -> u8 {
    (c as char).to_digit(16).map_or(0, |d| d as u8)
}

/// Go's `shouldEscape(c, encodeHost)`.
fn host_escapes(c: u8) -> bool {
    !(c.is_ascii_alphanumeric() || b"!$&'()*+,;=:[]<>\"-_.~".contains(&c))
}
