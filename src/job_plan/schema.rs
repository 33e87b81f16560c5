//! Which fields of Nomad's `structs` types `flatmap.Flatten(_, _, true)`
//! reads: the primitive fields (with Go's zero value, which a missing or
//! `null` JSON field stands for) and the `map[string]string` fields, flattened
//! as `Name[key]`. Pointers to primitives are skipped by Flatten inside a
//! struct, so they are listed to be skipped too. A JSON scalar the table does
//! not know (a field of a later release) is read as a primitive.

/// The zero value a missing field stands for, or how it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    Str,
    Num,
    Bool,
    /// `map[string]string`: one entry per key.
    Map,
}

/// A Nomad struct type the diff flattens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Type {
    Job,
    TaskGroup,
    Task,
    Constraint,
    Affinity,
    RestartPolicy,
    ReschedulePolicy,
    Migrate,
    Update,
    EphemeralDisk,
    Resources,
    Network,
    Port,
    LogConfig,
    Artifact,
    Template,
    Vault,
    Periodic,
    Parameterized,
    DispatchPayload,
    Device,
    Service,
    Check,
    CheckRestart,
    Consul,
    Scaling,
    Volume,
    VolumeMount,
}

use Field::*;

/// The primitive and map fields of `ty`.
pub(crate) fn fields(ty: Type) -> &'static [(&'static str, Field)] {
    match ty {
        Type::Job => &[
            ("Stop", Bool),
            ("Region", Str),
            ("Namespace", Str),
            ("ID", Str),
            ("ParentID", Str),
            ("Name", Str),
            ("Type", Str),
            ("Priority", Num),
            ("AllAtOnce", Bool),
            ("NodePool", Str),
            ("Dispatched", Bool),
            ("DispatchIdempotencyToken", Str),
            ("Meta", Map),
            ("ConsulNamespace", Str),
            ("VaultNamespace", Str),
        ],
        Type::TaskGroup => &[
            ("Name", Str),
            ("Count", Num),
            ("Meta", Map),
            ("PreventRescheduleOnLost", Bool),
        ],
        Type::Task => &[
            ("Name", Str),
            ("Driver", Str),
            ("User", Str),
            ("Env", Map),
            ("Meta", Map),
            ("KillTimeout", Num),
            ("Leader", Bool),
            ("ShutdownDelay", Num),
            ("KillSignal", Str),
            ("Kind", Str),
        ],
        Type::Constraint => &[("LTarget", Str), ("RTarget", Str), ("Operand", Str)],
        Type::Affinity => &[
            ("LTarget", Str),
            ("RTarget", Str),
            ("Operand", Str),
            ("Weight", Num),
        ],
        Type::RestartPolicy => &[
            ("Attempts", Num),
            ("Interval", Num),
            ("Delay", Num),
            ("Mode", Str),
            ("RenderTemplates", Bool),
        ],
        Type::ReschedulePolicy => &[
            ("Attempts", Num),
            ("Interval", Num),
            ("Delay", Num),
            ("DelayFunction", Str),
            ("MaxDelay", Num),
            ("Unlimited", Bool),
        ],
        Type::Migrate => &[
            ("MaxParallel", Num),
            ("HealthCheck", Str),
            ("MinHealthyTime", Num),
            ("HealthyDeadline", Num),
        ],
        Type::Update => &[
            ("Stagger", Num),
            ("MaxParallel", Num),
            ("HealthCheck", Str),
            ("MinHealthyTime", Num),
            ("HealthyDeadline", Num),
            ("ProgressDeadline", Num),
            ("AutoRevert", Bool),
            ("AutoPromote", Bool),
            ("Canary", Num),
        ],
        Type::EphemeralDisk => &[("Sticky", Bool), ("SizeMB", Num), ("Migrate", Bool)],
        Type::Resources => &[
            ("CPU", Num),
            ("Cores", Num),
            ("MemoryMB", Num),
            ("MemoryMaxMB", Num),
            ("DiskMB", Num),
            ("IOPS", Num),
        ],
        Type::Network => &[
            ("Mode", Str),
            ("Device", Str),
            ("CIDR", Str),
            ("IP", Str),
            ("Hostname", Str),
            ("MBits", Num),
        ],
        Type::Port => &[
            ("Label", Str),
            ("Value", Num),
            ("To", Num),
            ("HostNetwork", Str),
        ],
        Type::LogConfig => &[
            ("MaxFiles", Num),
            ("MaxFileSizeMB", Num),
            ("Disabled", Bool),
        ],
        Type::Artifact => &[
            ("GetterSource", Str),
            ("GetterOptions", Map),
            ("GetterHeaders", Map),
            ("GetterMode", Str),
            ("RelativeDest", Str),
        ],
        Type::Template => &[
            ("SourcePath", Str),
            ("DestPath", Str),
            ("EmbeddedTmpl", Str),
            ("ChangeMode", Str),
            ("ChangeSignal", Str),
            ("Once", Bool),
            ("Splay", Num),
            ("Perms", Str),
            ("LeftDelim", Str),
            ("RightDelim", Str),
            ("Envvars", Bool),
            ("VaultGrace", Num),
            ("ErrMissingKey", Bool),
        ],
        Type::Vault => &[
            ("Role", Str),
            ("Namespace", Str),
            ("Cluster", Str),
            ("Env", Bool),
            ("DisableFile", Bool),
            ("ChangeMode", Str),
            ("ChangeSignal", Str),
        ],
        Type::Periodic => &[
            ("Enabled", Bool),
            ("Spec", Str),
            ("SpecType", Str),
            ("ProhibitOverlap", Bool),
            ("TimeZone", Str),
        ],
        Type::Parameterized => &[("Payload", Str)],
        Type::DispatchPayload => &[("File", Str)],
        Type::Device => &[("Name", Str), ("Count", Num)],
        Type::Service => &[
            ("Name", Str),
            ("TaskName", Str),
            ("PortLabel", Str),
            ("AddressMode", Str),
            ("Address", Str),
            ("EnableTagOverride", Bool),
            ("Meta", Map),
            ("CanaryMeta", Map),
            ("TaggedAddresses", Map),
            ("Namespace", Str),
            ("OnUpdate", Str),
            ("Provider", Str),
        ],
        Type::Check => &[
            ("Name", Str),
            ("Type", Str),
            ("Command", Str),
            ("Path", Str),
            ("Protocol", Str),
            ("PortLabel", Str),
            ("Expose", Bool),
            ("AddressMode", Str),
            ("Interval", Num),
            ("Timeout", Num),
            ("InitialStatus", Str),
            ("TLSSkipVerify", Bool),
            ("Method", Str),
            ("GRPCService", Str),
            ("GRPCUseTLS", Bool),
            ("TaskName", Str),
            ("SuccessBeforePassing", Num),
            ("FailuresBeforeCritical", Num),
            ("Body", Str),
            ("OnUpdate", Str),
        ],
        Type::CheckRestart => &[("Limit", Num), ("Grace", Num), ("IgnoreWarnings", Bool)],
        Type::Consul => &[("Namespace", Str)],
        Type::Scaling => &[
            ("Type", Str),
            ("Target", Map),
            ("Min", Num),
            ("Max", Num),
            ("Enabled", Bool),
        ],
        Type::Volume => &[
            ("Name", Str),
            ("Type", Str),
            ("Source", Str),
            ("ReadOnly", Bool),
            ("AccessMode", Str),
            ("AttachmentMode", Str),
            ("PerAlloc", Bool),
        ],
        Type::VolumeMount => &[
            ("Volume", Str),
            ("Destination", Str),
            ("ReadOnly", Bool),
            ("PropagationMode", Str),
        ],
    }
}

/// Scalars in the JSON that are not primitive fields for Flatten: pointers
/// to primitives, byte slices (base64 text in JSON) and the scaling policy's
/// server-set ID and indexes, which Nomad's diff of it filters.
pub(crate) fn skipped(ty: Type) -> &'static [&'static str] {
    match ty {
        Type::Job => &["Payload", "SubmitTime"],
        Type::TaskGroup => &[
            "ShutdownDelay",
            "StopAfterClientDisconnect",
            "MaxClientDisconnect",
        ],
        Type::Template => &["Uid", "Gid"],
        Type::Scaling => &["ID", "CreateIndex", "ModifyIndex"],
        _ => &[],
    }
}
