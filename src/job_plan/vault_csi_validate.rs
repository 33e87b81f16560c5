//! A task's Vault block (`Vault.Validate`, v1.3.0
//! nomad/structs/structs.go:9011, v2.0.5 :10509) and CSI plugin block
//! (`Task.Validate`, v1.3.0 :7251, v2.0.5 :8369).

use serde_json::{Map, Value};

use super::json_map::{list, text};
use super::multierror::multierror;
use crate::model::go_quote;
use crate::version::{Switch, Switches};

/// `Vault validation failed: ...`: until #18343 (1.7.0) an empty policy
/// list, until #25155 (1.10.0) the `root` policy, and the change mode.
pub(crate) fn vault_error(t: &Map<String, Value>, rules: Switches) -> Option<String> {
    let v = t.get("Vault").and_then(Value::as_object)?;
    let mut errs = Vec::new();
    let policies = list(v, "Policies");
    if policies.is_empty() && !rules.has(Switch::VaultIdentity) {
        errs.push("Policy list cannot be empty".to_string());
    }
    if !rules.has(Switch::VaultTokensRemoved) {
        for p in &policies {
            if p.as_str() == Some("root") {
                errs.push("Can not specify \"root\" policy".into());
            }
        }
    }
    match text(v, "ChangeMode").as_str() {
        "signal" if text(v, "ChangeSignal").is_empty() => {
            errs.push("Signal must be specified when using change mode \"signal\"".into());
        }
        "signal" | "noop" | "restart" => {}
        mode => errs.push(format!("Unknown change mode {}", go_quote(mode))),
    }
    (!errs.is_empty()).then(|| format!("Vault validation failed: {}", multierror(&errs)))
}

/// The CSI plugin block: its ID, its type, and from #19441 (1.5.12, 1.6.5,
/// 1.7.2) a stage-publish directory within the mount directory.
pub(crate) fn csi_plugin_errors(t: &Map<String, Value>, rules: Switches) -> Vec<String> {
    let Some(c) = t.get("CSIPluginConfig").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    if text(c, "ID").is_empty() {
        errs.push("CSIPluginConfig must have a non-empty PluginID".to_string());
    }
    let kind = text(c, "Type");
    if !matches!(kind.as_str(), "node" | "controller" | "monolith") {
        errs.push(format!(
            "CSIPluginConfig PluginType must be one of 'node', 'controller', or 'monolith', got: \"{kind}\""
        ));
    }
    let (stage, mount) = (text(c, "StagePublishBaseDir"), text(c, "MountDir"));
    if rules.has(Switch::CsiStageDirOutsideMount)
        && !stage.is_empty()
        && !mount.is_empty()
        && is_subdirectory(&mount, &stage)
    {
        errs.push(format!(
            "CSIPluginConfig StagePublishBaseDir must not be a subdirectory of MountDir, got: StagePublishBaseDir=\"{stage}\" MountDir=\"{mount}\""
        ));
    }
    errs
}

/// Nomad's `helper.IsSubdirectory`: Go's `filepath.Rel` from `parent` to
/// `path` does not start with `..` (and an absolute path against a
/// relative one, which `Rel` refuses, is not one).
fn is_subdirectory(parent: &str, path: &str) -> bool {
    if parent.starts_with('/') != path.starts_with('/') {
        return false;
    }
    let (base, target) = (clean(parent), clean(path));
    match target.strip_prefix(base.as_slice()) {
        Some(rest) => rest.first().is_none_or(|p| !p.starts_with("..")),
        None => false,
    }
}

/// The path's names as Go's `filepath.Clean` leaves them.
fn clean(p: &str) -> Vec<&str> {
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            ".." if rooted => {}
            name => parts.push(name),
        }
    }
    parts
}
