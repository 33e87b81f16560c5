//! A service check's hash (`structs.ServiceCheck.Hash`,
//! nomad/structs/services.go), whose first six hex digits name the port
//! the expose-check mutator adds: the same check gets the same port label
//! as on the server, so a stored job shows no false change.

use serde_json::{Map, Value};

use super::json_map::text;
use crate::model::{Release, v};
use crate::time::format_duration;
use crate::version::{Switch, Switches};

/// The hex hash of `check` for `service_id`, as the release writes it: the
/// check's fields in Nomad's order, each as its text with nothing between
/// (the fields a release does not know are never set in its job).
pub(crate) fn check_hash(check: &Map<String, Value>, service_id: &str, release: Release) -> String {
    let num = |k: &str| check.get(k).and_then(Value::as_i64).unwrap_or(0);
    let flag = |k: &str| check.get(k).and_then(Value::as_bool) == Some(true);
    let mut input = String::new();
    let args: String = check
        .get("Args")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    input.push_str(service_id);
    for k in ["Name", "Type", "Command"] {
        input.push_str(&text(check, k));
    }
    input.push_str(&args);
    for k in ["Path", "Protocol", "PortLabel"] {
        input.push_str(&text(check, k));
    }
    input.push_str(&format_duration(num("Interval")));
    input.push_str(&format_duration(num("Timeout")));
    for k in ["Method", "Body", "OnUpdate"] {
        input.push_str(&text(check, k));
    }
    if release >= v(1, 8, 1) {
        input.push_str(&text(check, "Notes"));
    }
    if flag("TLSSkipVerify") {
        input.push_str("true");
    }
    if release >= v(1, 6, 0) {
        input.push_str(&text(check, "TLSServerName"));
    }
    input.push_str(&headers(check));
    input.push_str(&text(check, "AddressMode"));
    input.push_str(&text(check, "GRPCService"));
    if flag("GRPCUseTLS") {
        input.push_str("true");
    }
    let mut counts = vec![
        ("success", "SuccessBeforePassing"),
        ("failures", "FailuresBeforeCritical"),
    ];
    if release >= v(1, 7, 3) {
        counts.push(("failures-before-warning", "FailuresBeforeWarning"));
    }
    for (name, k) in counts {
        if num(k) != 0 {
            input.push_str(&format!("{name}:{}", num(k)));
        }
    }
    if Switches::of(release).has(Switch::CheckHashSha256) {
        hex(&sha256(input.as_bytes()))
    } else {
        sha1_smol::Sha1::from(input.as_bytes()).digest().to_string()
    }
}

/// Each header name followed by its values, sorted, joined.
fn headers(check: &Map<String, Value>) -> String {
    let Some(h) = check.get("Header").and_then(Value::as_object) else {
        return String::new();
    };
    let mut lines: Vec<String> = h
        .iter()
        .map(|(k, vals)| {
            let joined: String = vals
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            format!("{k}{joined}")
        })
        .collect();
    lines.sort();
    lines.concat()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// SHA-256 (FIPS 180-4), for the few short texts hashed here.
fn sha256(data: &[u8]) -> [u8; 32] {
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            (hh, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_matches_the_standard_vectors() {
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let long = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        assert_eq!(
            hex(&sha256(long)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }
}
