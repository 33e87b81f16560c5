//! The `CSIVolumes` and `CSIPlugins` tables: kept whole (a cluster has few
//! volumes), each one `None` until the dump lists it.

use std::collections::BTreeMap;

use super::document::State;
use crate::model::{CsiPlugin, CsiVolume};

impl State<'_> {
    /// Keeps a volume; `None` marks the table as listed, maybe empty.
    pub(super) fn add_csi_volume(&mut self, volume: Option<CsiVolume>) {
        self.csi_volumes.get_or_insert_with(Vec::new).extend(volume);
    }

    /// Keeps a plugin; `None` marks the table as listed, maybe empty.
    pub(super) fn add_csi_plugin(&mut self, plugin: Option<CsiPlugin>) {
        self.csi_plugins.get_or_insert_with(Vec::new).extend(plugin);
    }

    /// Keeps the last of each duplicate volume (by namespace and ID) and
    /// plugin (by ID), with one warning per table that counts the others.
    pub(super) fn settle_csi(&mut self) {
        if let Some(volumes) = self.csi_volumes.take() {
            let before = volumes.len();
            let by_key: BTreeMap<(String, String), CsiVolume> = volumes
                .into_iter()
                .map(|v| ((v.namespace.clone(), v.id.clone()), v))
                .collect();
            self.duplicates("CSIVolumes", before - by_key.len());
            self.csi_volumes = Some(by_key.into_values().collect());
        }
        if let Some(plugins) = self.csi_plugins.take() {
            let before = plugins.len();
            let by_id: BTreeMap<String, CsiPlugin> =
                plugins.into_iter().map(|p| (p.id.clone(), p)).collect();
            self.duplicates("CSIPlugins", before - by_id.len());
            self.csi_plugins = Some(by_id.into_values().collect());
        }
    }

    fn duplicates(&mut self, table: &str, count: usize) {
        if count > 0 {
            self.warnings.push(
                "duplicate_csi",
                format!("{table} lists {count} entry(ies) twice; the last of each is kept"),
            );
        }
    }
}
