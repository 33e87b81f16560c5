//! The blocks of `Task.Validate` after its services (v1.3.0
//! nomad/structs/structs.go:7183-7225, v2.0.5 :8284-8340): artifacts
//! (`TaskArtifact.Validate`, v2.0.5 :9878), templates (`Template.Validate`,
//! v2.0.5 :8922) and their destinations, the dispatch payload
//! (`DispatchPayloadConfig.Validate`, v2.0.5 :6145) and the lifecycle
//! (`TaskLifecycleConfig.Validate`, v2.0.5 :6177), with the Vault block
//! between artifacts and templates, the actions after the templates, and
//! last a Connect proxy task's own checks.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::actions_secrets_validate::action_errors;
use super::json_map::{list, text};
use super::multierror::multierror;
use super::vault_csi_validate::vault_error;
use crate::model::go_quote;
use crate::time::format_duration as go_duration;
use crate::version::{Switch, Switches};

/// The task's errors of these blocks, in Nomad's order.
pub(crate) fn task_block_errors(
    t: &Map<String, Value>,
    g: &Map<String, Value>,
    rules: Switches,
) -> Vec<String> {
    let mut errs = Vec::new();
    for (i, a) in list(t, "Artifacts").iter().enumerate() {
        let Some(a) = a.as_object() else { continue };
        let inner = artifact_errors(a);
        if !inner.is_empty() {
            errs.push(format!(
                "Artifact {} validation failed: {}",
                i + 1,
                multierror(&inner)
            ));
        }
    }
    errs.extend(vault_error(t, rules));
    let mut destinations: BTreeMap<String, usize> = BTreeMap::new();
    for (i, tmpl) in list(t, "Templates").iter().enumerate() {
        let Some(tmpl) = tmpl.as_object() else {
            continue;
        };
        let inner = template_errors(tmpl, rules);
        if !inner.is_empty() {
            errs.push(format!(
                "Template {} validation failed: {}",
                i + 1,
                multierror(&inner)
            ));
        }
        let dest = text(tmpl, "DestPath");
        match destinations.get(&dest) {
            Some(other) => errs.push(format!(
                "Template {} has same destination as {other}",
                i + 1
            )),
            None => {
                destinations.insert(dest, i + 1);
            }
        }
    }
    errs.extend(action_errors(t, rules));
    if let Some(p) = t.get("DispatchPayload").and_then(Value::as_object)
        && escapes("task/local/", &text(p, "File"))
    {
        errs.push(
            "Dispatch Payload validation failed: destination escapes allocation directory".into(),
        );
    }
    if let Some(l) = t.get("Lifecycle").and_then(Value::as_object) {
        let hook = text(l, "Hook");
        match hook.as_str() {
            "prestart" | "poststart" | "poststop" => {}
            "" => errs.push("Lifecycle validation failed: no lifecycle hook provided".into()),
            _ => errs.push(format!("Lifecycle validation failed: invalid hook: {hook}")),
        }
    }
    errs.extend(connect_proxy_errors(t, g, rules));
    errs
}

/// A Connect proxy task (kind `connect-proxy:<service>`): no services of
/// its own, not the leader, and a group service of that name with a
/// sidecar (v1.3.0 structs.go:7227, v2.0.5 :8341; `ValidateConnectProxyService`,
/// v2.0.5 :8729).
fn connect_proxy_errors(
    t: &Map<String, Value>,
    g: &Map<String, Value>,
    rules: Switches,
) -> Vec<String> {
    let kind = text(t, "Kind");
    let Some(service) = kind.strip_prefix("connect-proxy:") else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    if !list(t, "Services").is_empty() {
        let word = if rules.has(Switch::StanzaIsBlock) {
            "block"
        } else {
            "stanza"
        };
        errs.push(format!("Connect proxy task must not have a service {word}"));
    }
    if t.get("Leader").and_then(Value::as_bool) == Some(true) {
        errs.push("Connect proxy task must not have leader set".into());
    }
    let mut names = Vec::new();
    for s in list(g, "Services") {
        let sidecar = s
            .get("Connect")
            .and_then(|c| c.get("SidecarService"))
            .is_some_and(|v| !v.is_null());
        if !sidecar {
            continue;
        }
        let name = s.get("Name").and_then(Value::as_str).unwrap_or_default();
        if name == service {
            return errs;
        }
        names.push(name.to_string());
    }
    errs.push(if names.is_empty() {
        format!(
            "No Connect services in task group with Connect proxy ({})",
            go_quote(service)
        )
    } else {
        format!(
            "Connect proxy service name ({}) not found in Connect services from task group: [{}]",
            go_quote(service),
            names.join(" ")
        )
    });
    errs
}

/// `escapingfs.PathEscapesAllocViaRelative`: whether `prefix/path`, joined
/// under an allocation directory and cleaned, leaves it (Nomad's relative
/// path starts with `..`, so a first name such as `..x` counts too).
fn escapes(prefix: &str, path: &str) -> bool {
    let mut parts: Vec<&str> = vec!["alloc-dir", "alloc-id"];
    for part in prefix.split('/').chain(path.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    match parts.get(..2) {
        Some(["alloc-dir", "alloc-id"]) => parts.get(2).is_some_and(|p| p.starts_with("..")),
        _ => true,
    }
}

fn artifact_errors(a: &Map<String, Value>) -> Vec<String> {
    let mut errs = Vec::new();
    if text(a, "GetterSource").is_empty() {
        errs.push("source must be specified".to_string());
    }
    let mode = text(a, "GetterMode");
    if !matches!(mode.as_str(), "" | "any" | "file" | "dir") {
        errs.push(format!(
            "invalid artifact mode {}; must be one of: any, file, dir",
            go_quote(&mode)
        ));
    }
    if escapes("task", &text(a, "RelativeDest")) {
        errs.push("destination escapes allocation directory".into());
    }
    let checksum = a
        .get("GetterOptions")
        .and_then(|o| o.get("checksum"))
        .and_then(Value::as_str);
    errs.extend(checksum.and_then(checksum_error));
    errs
}

/// `TaskArtifact.validateChecksum` as a FIPS-less build runs it; one with
/// an interpolation (`${...}`) is left to the client.
fn checksum_error(check: &str) -> Option<String> {
    if has_interpolation(check) {
        return None;
    }
    let check = check.trim();
    if check.is_empty() {
        return Some("checksum value cannot be empty".into());
    }
    let parts: Vec<&str> = check.split(':').collect();
    let [kind, value] = parts[..] else {
        return Some(format!(
            "checksum must be given as \"type:value\"; got {}",
            go_quote(check)
        ));
    };
    if let Err(e) = hex_decoded_len(value) {
        return Some(format!("invalid checksum: {e}"));
    }
    let want = match kind {
        "md5" => 16,
        "sha1" => 20,
        "sha256" => 32,
        "sha512" => 64,
        _ => return Some(format!("unsupported checksum type: {kind}")),
    };
    (value.len() / 2 != want).then(|| format!("invalid {kind} checksum: {value}"))
}

/// Whether `s` holds `${name}` as Nomad's `args.ContainsEnv` finds it.
fn has_interpolation(s: &str) -> bool {
    s.match_indices("${").any(|(i, _)| {
        let rest = &s[i + 2..];
        let name = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .unwrap_or(rest.len());
        name > 0 && rest[name..].starts_with('}')
    })
}

/// Go's `hex.DecodeString` faults: the first bad byte of each pair, then
/// an odd length.
fn hex_decoded_len(s: &str) -> Result<usize, String> {
    let bytes = s.as_bytes();
    let bad = |b: u8| {
        let printable = (0x20..0x7f).contains(&b) || (0xa1..=0xff).contains(&b) && b != 0xad;
        if printable {
            format!(
                "encoding/hex: invalid byte: U+{:04X} '{}'",
                b,
                char::from(b)
            )
        } else {
            format!("encoding/hex: invalid byte: U+{b:04X}")
        }
    };
    for pair in bytes.chunks(2) {
        if let Some(&b) = pair.iter().find(|b| !b.is_ascii_hexdigit()) {
            return Err(bad(b));
        }
    }
    if !bytes.len().is_multiple_of(2) {
        return Err("encoding/hex: odd length hex string".into());
    }
    Ok(bytes.len() / 2)
}

fn template_errors(t: &Map<String, Value>, rules: Switches) -> Vec<String> {
    let mut errs = Vec::new();
    if text(t, "SourcePath").is_empty() && text(t, "EmbeddedTmpl").is_empty() {
        errs.push("Must specify a source path or have an embedded template".to_string());
    }
    let dest = text(t, "DestPath");
    if dest.is_empty() {
        errs.push("Must specify a destination for the template".into());
    }
    if escapes("task", &dest) {
        errs.push("destination escapes allocation directory".into());
    }
    let script_mode = rules.has(Switch::TemplateChangeScript);
    match text(t, "ChangeMode").as_str() {
        "noop" | "restart" => {}
        "signal" => {
            if text(t, "ChangeSignal").is_empty() {
                errs.push("Must specify signal value when change mode is signal".into());
            }
            if t.get("Envvars").and_then(Value::as_bool) == Some(true) {
                errs.push("cannot use signals with env var templates".into());
            }
        }
        "script" if script_mode => match t.get("ChangeScript").and_then(Value::as_object) {
            None => errs.push(
                "must specify change script configuration value when change mode is script".into(),
            ),
            Some(s) if text(s, "Command").is_empty() => {
                errs.push("must specify script path value when change mode is script".into());
            }
            Some(_) => {}
        },
        _ if script_mode => errs.push(
            "Invalid change mode. Must be one of the following: noop, signal, script, restart"
                .into(),
        ),
        _ => errs.push(
            "Invalid change mode. Must be one of the following: noop, signal, restart".into(),
        ),
    }
    if t.get("Splay").and_then(Value::as_i64).unwrap_or(0) < 0 {
        errs.push("Must specify positive splay value".into());
    }
    let perms = text(t, "Perms");
    if !perms.is_empty()
        && let Some(e) = octal_error(&perms)
    {
        errs.push(format!(
            "Failed to parse {} as octal: strconv.ParseUint: parsing {}: {e}",
            go_quote(&perms),
            go_quote(&perms)
        ));
    }
    if let Some(w) = t.get("Wait").and_then(Value::as_object) {
        let bound = |k: &str| w.get(k).and_then(Value::as_i64);
        if let (Some(min), Some(max)) = (bound("Min"), bound("Max"))
            && min > max
        {
            errs.push(format!(
                "wait min {} is greater than max {}",
                go_duration(min),
                go_duration(max)
            ));
        }
    }
    errs
}

/// Go's `strconv.ParseUint(s, 8, 12)` fault, first from the left.
fn octal_error(s: &str) -> Option<&'static str> {
    let mut n: u64 = 0;
    for c in s.bytes() {
        if !(b'0'..=b'7').contains(&c) {
            return Some("invalid syntax");
        }
        n = n * 8 + u64::from(c - b'0');
        if n > 0o7777 {
            return Some("value out of range");
        }
    }
    None
}
