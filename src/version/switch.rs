//! The catalogue of reconciler changes after the seed, as data: one row per
//! change, from which every release's rule set is derived. Adding a change
//! is one row here plus the code of its behaviour (CONTRIBUTING.md);
//! docs/nomad-versions.md says what each one means for an operator.

use super::setting::Setting;
use crate::model::{Release, v};

/// One catalogued change of the generic reconciler (or of what it reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// Its ID in the shared catalogue of release changes, `A-1` ... `H-4`
    /// (B-2's two changes add their PR); a `tasksUpdated` or
    /// system-scheduler change without one goes by its PR.
    pub id: &'static str,
    /// The first patch of each series that has it, oldest series first.
    pub firsts: &'static [Release],
    /// The first patches of the change that undid it, if any.
    pub undone_by: Option<&'static [Release]>,
    /// Whether plan-inspect replays it; until it does, every profile keeps
    /// the earlier rule there and says so in a warning.
    pub replayed: bool,
    /// The change in one line.
    pub wording: &'static str,
    /// The job settings it starts or stops reading.
    pub reads: &'static [Setting],
}

/// Declares [`Switch`] and [`CATALOGUE`] from the same rows, so that a
/// change's variant and its row cannot disagree in order or in number.
macro_rules! catalogue {
    ($( $(#[$doc:meta])* $switch:ident {
        id: $id:literal,
        firsts: $firsts:expr,
        $(undone_by: $undone:expr,)?
        replayed: $replayed:literal,
        reads: [$($setting:ident),* $(,)?],
        wording: $wording:literal $(,)?
    } )*) => {
        /// A catalogued change, named after its row of [`CATALOGUE`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Switch {
            $( $(#[$doc])* $switch, )*
        }

        /// Every change, in catalogue order: row `i` is the switch whose
        /// discriminant is `i`.
        pub const CATALOGUE: &[Change] = &[
            $( Change {
                id: $id,
                firsts: $firsts,
                undone_by: catalogue!(@undone $($undone)?),
                replayed: $replayed,
                wording: $wording,
                reads: &[$(Setting::$setting),*],
            }, )*
        ];

        impl Switch {
            /// Every switch, in catalogue order.
            pub const ALL: &[Switch] = &[$(Switch::$switch),*];
        }
    };
    (@undone) => { None };
    (@undone $undone:expr) => { Some($undone) };
}

catalogue! {
    /// A-1 (1.3.0; v1.3.0 scheduler/reconcile_util.go:243, reconcile.go:927):
    /// an allocation that reconnects as `failed` is a failed reconnect,
    /// stopped as failed and replaced, instead of a terminal allocation left
    /// to its reschedule policy; the reconnect check runs only for unknown,
    /// running and failed allocations. With C-1 it also decides whether
    /// reconnect updates are planned: the seed only logged them, 1.3.0
    /// dropped even the log (A-5, PR #12555).
    A1 {
        id: "A-1",
        firsts: &[v(1, 3, 0)],
        replayed: true,
        reads: [],
        wording: "failed reconnects are stopped and replaced",
    }
    /// A-2 (1.3.0; v1.3.0 nomad/structs/structs.go:9955): disconnect handling
    /// applies to an allocation only if its own job version's group sets
    /// `max_client_disconnect`; elsewhere a disconnected node's allocations
    /// are lost.
    A2 {
        id: "A-2",
        firsts: &[v(1, 3, 0)],
        replayed: true,
        reads: [MaxClientDisconnect],
        wording: "disconnect support is per group",
    }
    /// A-3 (1.3.0; v1.3.0 scheduler/reconcile_util.go:257, :365,
    /// reconcile.go:346, :353): the disconnected and ready-but-tainted node
    /// checks run before the terminal, migrate, expiry and unknown checks; a
    /// disconnecting allocation already unknown (a canary cut off by the
    /// disconnect) is not rescheduled again; stopping a job or removing a
    /// group also stops its ignored unknown allocations.
    A3 {
        id: "A-3",
        firsts: &[v(1, 3, 0)],
        replayed: true,
        reads: [],
        wording: "the disconnected and draining node checks run first",
    }
    /// A-6 (1.3.0; v1.3.0 scheduler/util.go:554): a changed task
    /// `csi_plugin` block is a destructive update.
    A6 {
        id: "A-6",
        firsts: &[v(1, 3, 0)],
        replayed: true,
        reads: [],
        wording: "a task's csi_plugin change is destructive",
    }
    /// B-1 (1.3.2, 1.4.0; v1.3.2 scheduler/reconcile_util.go:427): a batch
    /// allocation evicted (by preemption) is ignored, so it is replaced, even
    /// when its tasks ran successfully.
    B1 {
        id: "B-1",
        firsts: &[v(1, 3, 2), v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "a batch allocation evicted by preemption is not counted",
    }
    /// B-1v (1.3.2, 1.4.0; v1.3.2 scheduler/util.go:529): changed group
    /// `volume` requests or task `volume_mount`s are a destructive update.
    B1v {
        id: "B-1v",
        firsts: &[v(1, 3, 2), v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "a group volume or task volume_mount change is destructive",
    }
    /// B-2 #14659 (1.3.6, 1.4.0; v1.4.0 scheduler/reconcile.go:286): with no
    /// deployment, a multiregion job is paused only if it uses deployments
    /// (services); with B-2 #15325 no deployment no longer pauses at all.
    B2a {
        id: "B-2 #14659",
        firsts: &[v(1, 3, 6), v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "with no deployment, a multiregion job is paused only if it uses deployments",
    }
    /// B-2 #15325 (1.3.10, 1.4.5, 1.5.0; v1.4.5 scheduler/reconcile.go:263, :293,
    /// :297, :525): no deployment no longer pauses; an `initializing`
    /// deployment is paused, goes into the plan in full and is moved to
    /// `pending`; a created multiregion deployment starts `running` rather
    /// than `pending` (the start status is the multiregion deployment
    /// watcher's, outside the scheduler).
    B2b {
        id: "B-2 #15325",
        firsts: &[v(1, 3, 10), v(1, 4, 5), v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "a multiregion deployment starts initializing, which is paused and moved to pending",
    }
    /// C-1 (1.3.8, 1.4.3, 1.5.0; v1.3.8 scheduler/reconcile_util.go:241,
    /// nomad/structs/structs.go:10366, generic_sched.go:420,
    /// reconcile.go:1208): an allocation needs to reconnect while its latest
    /// client-status transition is to unknown, and is expired by the
    /// evaluation time (before, any `Reconnected` task event marked it
    /// reconnected for good, expired as of that event); each reconnect update
    /// is an allocation of the plan (`AppendAlloc`, so alone not a no-op)
    /// and appends a client-status state with the allocation's status, which
    /// ends its reconnect for later evaluations.
    C1 {
        id: "C-1",
        firsts: &[v(1, 3, 8), v(1, 4, 3), v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "a reconnect is detected from AllocStates and goes into the plan",
    }
    /// C-2 (1.3.14, 1.4.9, 1.5.4, 1.6.0; v1.3.14 scheduler/reconcile.go:1077,
    /// :1173): reconnecting allocations are settled right after
    /// classification, each against every same-named allocation of the group
    /// placed after it, whatever its bucket; the survivors join the
    /// untainted. Before, `computeStop` weighed them against untainted
    /// allocations only while the group was over its count, and counted
    /// every reconnect update of the job so far as ignored.
    C2 {
        id: "C-2",
        firsts: &[v(1, 3, 14), v(1, 4, 9), v(1, 5, 4), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a reconnect is reconciled first, against its replacements",
    }
    /// D-1 (1.4.14, 1.5.10, 1.6.3, 1.7.0; v1.6.3
    /// scheduler/reconcile_util.go:328, :480, reconcile.go:473, :824, :997;
    /// v1.4.14 reconcile.go:437, :445, :1150, :1175):
    /// - an unknown allocation of a disconnect group is untainted, so it
    ///   counts toward the group's count and goes through updates, instead
    ///   of being ignored; the surplus count of `computeStop` leaves it out,
    ///   and a reschedule of it does not stop it;
    /// - a disconnecting allocation is replaced only as its reschedule policy
    ///   allows, now or by a follow-up evaluation (`updateByReschedulable`),
    ///   instead of always at once;
    /// - a reconnecting allocation is weighed only against its direct
    ///   successor (`NextAllocation`), and a failed successor is not stopped
    ///   when the original is kept;
    /// - the untainted allocations are filtered for rescheduling before the
    ///   reconnecting ones are settled, so those resuming are not reschedule
    ///   candidates (from C-2 to then, after).
    D1 {
        id: "D-1",
        firsts: &[v(1, 4, 14), v(1, 5, 10), v(1, 6, 3), v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "disconnecting allocations follow the reschedule policy; unknown ones count",
    }
    /// D-1b (1.4.14, 1.5.10, 1.6.3, 1.7.0; v1.6.3
    /// scheduler/reconcile_util.go:617, :725, generic_sched.go:641): a
    /// group's name index counts the names held twice; releasing such a name
    /// keeps it in use; and the scheduler gives a planned allocation whose
    /// name is held twice the next free name instead.
    D1b {
        id: "D-1b",
        firsts: &[v(1, 4, 14), v(1, 5, 10), v(1, 6, 3), v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "duplicate allocation names are fixed in the plan",
    }
    /// D-2 (1.5.17, 1.6.10, 1.7.7, 1.8.0; v1.7.7
    /// scheduler/reconcile_util.go:298): of the terminal allocations of a
    /// disconnect group, only server-terminal ones are ignored; a complete or
    /// failed one still desired to run is untainted again.
    D2 {
        id: "D-2",
        firsts: &[v(1, 5, 17), v(1, 6, 10), v(1, 7, 7), v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "only server-terminal allocations of a disconnect group are ignored",
    }
    /// D-3 (1.7.2, 1.8.0; v1.7.2 scheduler/reconcile_util.go:316, :338;
    /// reconcile.go:487; nomad/structs/structs.go:6654, :11040):
    /// `filterByTainted` returns a seventh set, `expiring`, for unknown
    /// allocations past their disconnect expiry, which were lost before; a
    /// group can keep allocations of a down or disconnected node as unknown
    /// (`prevent_reschedule_on_lost`); the reconnect checks of an allocation
    /// on a tainted ready node run with those of an untainted node, after
    /// the terminal, migrate, expiry and unknown checks (from A-3 to then
    /// they ran first, v1.3.0 reconcile_util.go:273).
    /// - a job plan refuses `prevent_reschedule_on_lost` with
    ///   `max_client_disconnect` and reschedule attempts (v1.7.2
    ///   nomad/structs/structs.go `Job.Validate`, #19431)
    D3 {
        id: "D-3",
        firsts: &[v(1, 7, 2), v(1, 8, 0)],
        replayed: true,
        reads: [PreventRescheduleOnLost],
        wording: "prevent_reschedule_on_lost and the expiring bucket",
    }
    /// D-4a (1.8.0; v1.8.0 nomad/structs/structs.go:7504, :7519, :7534,
    /// :11315, :11521; scheduler/reconnecting_picker/reconnecting_picker.go:25,
    /// scheduler/reconcile.go:1212): the `disconnect` block is read after the
    /// legacy fields, and its `reconcile` strategy weighs a reconnect.
    /// - a job plan validates the block (v2.0.5 nomad/structs/group.go:66),
    ///   and until F-1 a legacy field beside its counterpart in the block
    ///   ends the group's validation with that one error (v1.9.7
    ///   structs.go:7496-7508)
    /// - a job plan warns that the legacy fields will be deprecated (v1.8.0
    ///   structs.go:7424)
    D4a {
        id: "D-4a",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [LostAfter, StopOnClientAfter, Replace, Reconcile],
        wording: "the disconnect block and its reconcile strategies",
    }
    /// D-4b (1.8.0 to 1.11.1; v1.8.0 nomad/structs/structs.go:11223
    /// `RescheduleTimeOnDisconnect`): a disconnecting allocation of a group
    /// with a `disconnect` block is replaced at once if `replace` is true and
    /// never if it is false, whatever its reschedule policy; G-1 undoes it.
    D4b {
        id: "D-4b",
        firsts: &[v(1, 8, 0)],
        undone_by: &[v(1, 11, 2), v(2, 0, 0)],
        replayed: true,
        reads: [Replace],
        wording: "with a disconnect block, replace = true replaces at once",
    }
    /// E-1 (1.8.1, 1.9.0; v1.8.1 scheduler/reconcile_util.go:417, :465;
    /// nomad/structs/structs.go:11194): an allocation stopped for
    /// rescheduling whose replacement could not be placed (reschedule tracker
    /// `LastReschedule` "no placement") is rescheduled again, and a lost
    /// allocation is eligible like a failed one; untainted allocations are no
    /// longer reschedule candidates, ending D-1's force-reschedule quirk.
    E1 {
        id: "E-1",
        firsts: &[v(1, 8, 1), v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "the reschedule tracker records failed placements, which can be rescheduled",
    }
    /// E-2 (1.9.1, 1.10.0; v1.9.1 scheduler/reconcile.go:1158, the chain at
    /// :1197): a reconnecting allocation is weighed against every allocation
    /// of the group down its chain of `NextAllocation`s (a failed
    /// replacement replaced again is still compared), and when it is kept
    /// every one of them not stopped yet is stopped, failed ones too.
    E2 {
        id: "E-2",
        firsts: &[v(1, 9, 1), v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a reconnect is compared with the whole chain of replacements",
    }
    /// E-3 (1.9.7, 1.10.0; v1.9.7 nomad/structs/structs.go:11467): a nil
    /// reschedule policy is checked before its attempts are read.
    E3 {
        id: "E-3",
        firsts: &[v(1, 9, 7), v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a nil reschedule policy is not eligible instead of a panic",
    }
    /// F-1 (1.10.0; v1.10.0 nomad/structs/structs.go:7621, :7631,
    /// scheduler/reconcile.go:498): the legacy group fields are ignored; the
    /// `disconnect` block alone decides.
    /// - a job plan's group diff no longer lists `StopAfterClientDisconnect`
    ///   and `MaxClientDisconnect` (v1.9.7 nomad/structs/diff.go:265-291
    ///   flattened both pointers by hand when both groups exist)
    /// - a job plan no longer validates them (v1.9.7 structs.go:4655-4670,
    ///   :7488-7494), and warns that they are ignored (v1.10.0
    ///   structs.go:7542)
    F1 {
        id: "F-1",
        firsts: &[v(1, 10, 0)],
        replayed: true,
        reads: [MaxClientDisconnect, StopAfterClientDisconnect, PreventRescheduleOnLost],
        wording: "max_client_disconnect, stop_after_client_disconnect and prevent_reschedule_on_lost are ignored",
    }
    /// F-2 (1.10.1, 1.11.0; v1.10.1 scheduler/reconcile_util.go:310): a
    /// terminal canary with a migrate transition is migrated instead of
    /// staying untainted, which held its deployment back.
    F2 {
        id: "F-2",
        firsts: &[v(1, 10, 1), v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a terminal canary with a migrate transition is migrated",
    }
    /// F-4 (1.10.5, 1.11.0; v1.10.5 scheduler/generic_sched.go:302, v1.3.0
    /// :293-296): whether a failed placement leaves a blocked evaluation
    /// beside follow-ups, decided after the placement stage
    /// (`replay/placing.rs`).
    F4 {
        id: "F-4",
        firsts: &[v(1, 10, 5), v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a blocked evaluation for failed placements is created even beside follow-ups",
    }
    /// G-0 (1.11.0; v1.11.0 scheduler/reconciler/filters.go:42, :386,
    /// reconcile_cluster.go:384, :397, :425, :560, :564, :906, :1009, :1427,
    /// :1656; v1.11.2 reconcile_cluster.go:546, :1046; #26961):
    /// - a group drops the allocations the server stopped or evicted before
    ///   anything else, except batch ones without a reschedule transition;
    /// - a group scaled to `count = 0` is stopped whole like a removed group;
    /// - a group never places more than its count (canaries, replacements,
    ///   then migrations are cut to the first `count`; desired `place` is
    ///   `count`), and its deployment is complete by the placements it emits;
    /// - a group that runs this job version is "updating spec" only with
    ///   updates of its own (v1.10.5 reconcile.go:974 counted the in-place
    ///   updates of every group before it);
    /// - the first batch of delayed reschedules is triggered by
    ///   `alloc-reschedule`; `RescheduleNow` is counted only for a group with
    ///   a disconnecting allocation;
    /// - a batch allocation with a reschedule transition is a reschedule
    ///   candidate whatever its client status, migrating allocations are
    ///   filtered for rescheduling too, and a batch migration with a
    ///   reschedule or `MigrateDisablePlacement` transition gets no placement.
    G0 {
        id: "G-0",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "the 1.11 reconciler: server-terminal pre-filter, count 0 as a removed group, placements capped at count",
    }
    /// G-0b (1.11.0 only; v1.11.0 scheduler/reconciler/reconcile_cluster.go:318):
    /// stopping a job keeps the stops of one group only, each group's list
    /// overwriting the last; the desired changes still count every group.
    /// Nomad keeps the group its map visits last; plan-inspect the last by
    /// name. Fixed in 1.11.1 (:325).
    G0b {
        id: "G-0b",
        firsts: &[v(1, 11, 0)],
        undone_by: &[v(1, 11, 1)],
        replayed: true,
        reads: [],
        wording: "stopping a multi-group job stops one group's allocations only",
    }
    /// G-1 (1.11.2, 2.0.0; v1.11.2 scheduler/reconciler/filters.go:111, :411,
    /// :433, :464, reconcile_cluster.go:439, :1618; generic_sched.go:354;
    /// nomad/structs/alloc.go:753, :779): `filterByTainted` no longer asks
    /// whether disconnects are supported; expiring allocations are always
    /// lost; every disconnecting allocation gets a timeout eval, and is
    /// rescheduled later only once, never with `replace = false`.
    G1 {
        id: "G-1",
        firsts: &[v(1, 11, 2), v(2, 0, 0)],
        replayed: true,
        reads: [LostAfter, Replace],
        wording: "the classification rewrite: replace follows the reschedule policy",
    }
    /// H-2 (2.0.3; v2.0.3 scheduler/util.go:845-859): an in-place update
    /// whose `max_run_duration` reads as changed skips the placement-stack
    /// check. The same release's rule table for `filterByTainted` (#28010,
    /// v2.0.3 scheduler/reconciler/filters.go:130) keeps 1.11.2's checks and
    /// order, so it is no switch.
    H2 {
        id: "H-2",
        firsts: &[v(2, 0, 3)],
        replayed: true,
        reads: [MaxRunDuration],
        wording: "a changed max_run_duration is an in-place update without a feasibility check",
    }
    /// H-3 (2.0.4; #27971, #28018, v2.0.4
    /// scheduler/reconciler/reconcile_cluster.go:1145, filters.go:162, :474):
    /// the scale-down stop of `computeStop` passes over server-terminal
    /// allocations only, so a client-failed one still desired to run can be
    /// stopped as surplus; a server-terminal allocation with
    /// `MigrateDisablePlacement` (a drained batch allocation) that is not
    /// reconnecting is untainted and counted, and gets no replacement.
    H3 {
        id: "H-3",
        firsts: &[v(2, 0, 4)],
        replayed: true,
        reads: [],
        wording: "a client-terminal allocation can be a stop candidate; a drained batch allocation counts",
    }
    /// H-4 (after 2.0.5; #28445, main scheduler/reconciler/filters.go:537,
    /// nomad/structs/alloc.go:864): a force-reschedule transition reschedules
    /// an allocation now only if its client status is terminal;
    /// `NeedsToReconnect` skips client-status entries with an empty value.
    H4 {
        id: "H-4",
        firsts: &[Release::Head],
        replayed: true,
        reads: [],
        wording: "force-reschedule applies to client-terminal allocations only; empty AllocStates values are skipped",
    }
    /// #15755 (1.5.0; v1.5.0 scheduler/util.go:286): a changed task
    /// `identity` is a destructive update.
    TaskIdentity {
        id: "#15755",
        firsts: &[v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "a task identity change is destructive",
    }
    /// #16362 (1.5.1, 1.6.0; v1.5.1 scheduler/util.go:801): the in-place
    /// check keeps an allocation whose node any of the job's datacenters
    /// matches as a wildcard (`IsInAnyDC`); before, only exact names.
    DatacenterGlob {
        id: "#16362",
        firsts: &[v(1, 5, 1), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "an allocation stays in place on a node a wildcard datacenter of the job matches",
    }
    /// #16421 (1.5.2, 1.6.0; v1.5.2 scheduler/util.go:174-205): typed
    /// `Equal` methods replace `reflect.DeepEqual` in `tasksUpdated` (a nil
    /// list or map equals an empty one, affinities compare as a set), and
    /// each difference carries a label.
    TypedEqual {
        id: "#16421",
        firsts: &[v(1, 5, 2), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "tasksUpdated compares with typed Equal methods and labels each difference",
    }
    /// #16962 (1.5.4, 1.6.0; v1.5.4 scheduler/util.go:308): switching a
    /// task's log collection on or off is a destructive update. 1.5.4 alone
    /// names the switch `LogConfig.Enabled` (#17089 renames it).
    LogsDisabled {
        id: "#16962",
        firsts: &[v(1, 5, 4), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a change of a task's log collection switch is destructive",
    }
    /// #17443 (1.6.0; v1.6.0 scheduler/util.go:49, :64, :643, :890): an
    /// allocation whose node is not in the new job's `node_pool` (unless
    /// `all`) is replaced, and the system scheduler and the placement stage
    /// read only the nodes of the job's pool; a failure's `NodesInPool`
    /// counts them (v1.6.0 scheduler/generic_sched.go:599); a node update
    /// evaluates only the system jobs of the node's pool (v1.6.0
    /// nomad/node_endpoint.go:1697).
    NodePool {
        id: "#17443",
        firsts: &[v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "an allocation on a node outside the job's node_pool is replaced",
    }
    /// #17598 (1.6.0; v1.6.0 scheduler/generic_sched.go:708-724,
    /// scheduler_system.go:216-232, nomad/structs/operator.go:201,
    /// nomad/job_endpoint_hooks.go:325-330): the stack runs with the
    /// cluster's scheduler configuration merged with the job's node pool's
    /// own (its algorithm, its memory oversubscription), for each job
    /// version it takes; job registration's `memory_max` warning reads the
    /// pool's too. Before, the cluster's alone (v1.5.0 scheduler/stack.go
    /// :275, :412).
    NodePoolSchedulerConfig {
        id: "#17598",
        firsts: &[v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a node pool's own scheduler configuration overrides the cluster's for its jobs",
    }
    /// #18054 (1.6.2, 1.7.0; v1.6.2 scheduler/util.go:582): turning
    /// `restart.render_templates` on or off, on the group or a task, is a
    /// destructive update; the API's restart policies have it, false by
    /// default (v1.6.2 api/tasks.go:591; v1.6.1 :581 without it).
    RenderTemplates {
        id: "#18054",
        firsts: &[v(1, 6, 2), v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "a change of restart.render_templates is destructive",
    }
    /// #18123 (1.7.0; v1.7.0 scheduler/util.go:326): a change of a task's
    /// extra workload `identity` blocks is a destructive update; and
    /// (v1.7.0 nomad/structs/structs.go `Task.Validate`) they are validated;
    /// `Task.Canonicalize` moves the default one to the task's `Identity`
    /// (structs.go:7721), and each one's warnings are the task's (:8134).
    Identities {
        id: "#18123",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "a change of a task's extra identity blocks is destructive",
    }
    /// #18409, #18597, #19230 (1.7.0; v1.7.0 scheduler/util.go:292, :384,
    /// :411): a changed Consul `cluster` of the group (when both versions
    /// set a Consul block) or of a Connect service, and a changed Consul
    /// namespace or cluster of the task's own Consul block, are destructive.
    /// The API gives a group's `consul` block and a service the cluster
    /// `default` (v1.7.0 api/consul.go:24, api/services.go:291; v1.6.10
    /// has no such field, so a job plan's service diff leaves it out).
    ConsulCluster {
        id: "#18409",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "a change of a Consul cluster, or of the task's Consul namespace, is destructive",
    }
    /// #18681 (1.7.0; v1.7.0 scheduler/util.go:363): a changed task `numa`
    /// block is a destructive update. The same change takes a node's CPU
    /// shares from its topology's usable compute (v1.7.0
    /// nomad/structs/structs.go:3185; v1.6.10 :2345 `NodeResources.Cpu`) and
    /// drops the pre-0.9 `Resources` and `Reserved` fallbacks of nodes and
    /// allocations (v1.6.10 structs.go:2351 `ComparableResources`).
    Numa {
        id: "#18681",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "a change of a task's numa block is destructive",
    }
    /// #19665 (1.7.3, 1.8.0; v1.7.3 scheduler/util.go:388,
    /// nomad/job_endpoint_hook_consul.go:24, :43, :60, :79):
    /// - a changed Consul admin `partition` (when both versions set a Consul
    ///   block) is a destructive update;
    /// - the register endpoint gives a group or task whose `consul` block
    ///   has a partition the constraint `${attr.consul.partition} = <it>`
    ///   (`${attr.consul.<cluster>.partition}` on another cluster), and
    ///   refuses a task partition that differs from its group's.
    ConsulPartition {
        id: "#19665",
        firsts: &[v(1, 7, 3), v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a change of a Consul admin partition is destructive",
    }
    /// #20074 (1.8.0; v1.8.0 nomad/structs/volumes.go:272, compared from
    /// scheduler/util.go:302): a volume mount's SELinux label is part of the
    /// mount, so changing it is a destructive update.
    SelinuxLabel {
        id: "#20074",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a change of a volume mount's SELinux label is destructive",
    }
    /// #23696 (1.8.3, 1.9.0; v1.8.3 scheduler/util.go:371): a changed
    /// `resources.secrets` (the secrets tmpfs size) is destructive, and
    /// (v1.8.3 nomad/structs/structs.go `Resources.Validate`) it may be
    /// neither negative nor above the task's memory; a task's secrets
    /// count with its memory and its ceiling (v1.8.3 scheduler/rank.go:375,
    /// :380; v1.8.2 without them).
    SecretsSize {
        id: "#23696",
        firsts: &[v(1, 8, 3), v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a change of resources.secrets is destructive",
    }
    /// #23764 (1.8.3, 1.9.0; v1.8.3 scheduler/util.go:547): changed `cni`
    /// arguments of a network are a destructive update.
    NetworkCni {
        id: "#23764",
        firsts: &[v(1, 8, 3), v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a change of a network's cni arguments is destructive",
    }
    /// #17089 (1.5.5; v1.5.5 scheduler/annotate.go:194): a job plan's task
    /// annotation counts a LogConfig change as in place unless the block
    /// lists a `Disabled` field, which forces a create/destroy update (the
    /// contextual diff lists it even unchanged); before, any LogConfig change
    /// was in place (v1.5.4 annotate.go:187). The field is `Disabled`, false
    /// by default (v1.5.5 api/tasks.go:664); 1.5.4 named it `Enabled` (:659).
    AnnotateLogsDisabled {
        id: "#17089",
        firsts: &[v(1, 5, 5)],
        replayed: true,
        reads: [],
        wording: "a job plan annotates a task whose log config lists Disabled as a create/destroy update",
    }
    /// #25109 (1.10.0; v1.10.0 scheduler/util.go:217): the affinity and
    /// spread checks of `tasksUpdated` are dropped (v1.9.7 util.go:237,
    /// :242 had them), so such a change is updated in place; a job plan's
    /// annotation agrees (v1.10.0 scheduler/annotate.go:191).
    PlacementPrefsInPlace {
        id: "#25109",
        firsts: &[v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "affinity and spread changes are updated in place",
    }
    /// #26076 (1.11.0; v1.11.0 scheduler/util.go:233): a change of a task's
    /// `secret` blocks is a destructive update; and (v1.11.0
    /// nomad/structs/structs.go `Task.Validate`, `Secret.Validate`) the
    /// secrets, which came with it, are validated.
    TaskSecrets {
        id: "#26076",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a change of a task's secret blocks is destructive",
    }
    /// #26303 (1.11.0; v1.11.0 scheduler/feasible/feasible.go:38, :187,
    /// :194-204, stack.go:277, :438, :509): a node must have fingerprinted
    /// the provider of every task `secret` block of the group as the
    /// attribute `plugins.secrets.<provider>.version`, else it is filtered
    /// as "missing secrets provider"; the check is the last of those cached
    /// per computed class, after the network's, in the generic and system
    /// stacks alike. Before, providers were not checked.
    SecretsProviders {
        id: "#26303",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a node must have the provider of every task secret block",
    }
    /// #12555 (1.3.0; v1.3.0 scheduler/util.go:103-205): the system
    /// scheduler's diff marks a running allocation on a disconnected node
    /// unknown, loses an expired unknown one, keeps an unknown one that may
    /// reconnect and sets a reconnecting one apart, when the allocation's
    /// group supports disconnected clients; the seed loses or ignores them
    /// by node status alone. It also ignores a successfully finished
    /// allocation on a tainted node for sysbatch jobs (v1.3.0 util.go:184)
    /// where the seed asked for batch, which no system job is.
    SystemDisconnect {
        id: "#12555",
        firsts: &[v(1, 3, 0)],
        replayed: true,
        reads: [MaxClientDisconnect],
        wording: "the system scheduler keeps allocations of disconnected nodes unknown until they reconnect or expire",
    }
    /// #11170 (1.5.0; v1.5.0 scheduler/util.go:70 `IsInDC`): the system
    /// scheduler targets a ready node whose datacenter one of the job's
    /// datacenters matches as a wildcard (`dc*`); before, by name only. Its
    /// in-place check agrees from #16362. `readyNodesInDCs` serves the
    /// placement stage of service and batch jobs too, which from here also
    /// stops counting a job datacenter without ready nodes in
    /// `NodesAvailable` (v1.4.0 scheduler/util.go:355 set it to 0). A job
    /// without datacenters gets `["*"]` (v1.5.0 nomad/structs/structs.go:4391);
    /// before, it is refused (v1.4.14 structs.go:4354).
    SystemDatacenterGlob {
        id: "#11170",
        firsts: &[v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "the system scheduler targets the nodes a wildcard datacenter of the job matches",
    }
    /// #12955 (1.3.2; v1.3.2 nomad/node_endpoint.go:1479 `createNodeEvals`): a
    /// node update evaluates a system job only when the node is in one of
    /// its datacenters; before, every system job. Wildcard datacenters
    /// follow #11170 (v1.5.0 node_endpoint.go `IsInDC`).
    NodeEvalsInDatacenter {
        id: "#12955",
        firsts: &[v(1, 3, 2)],
        replayed: true,
        reads: [],
        wording: "a node update evaluates only the system jobs of the node's datacenter",
    }
    /// #23858 (1.8.4; v1.8.4 nomad/node_endpoint.go:1703): a node update
    /// creates no evaluation for a sysbatch job's allocation on the node.
    NodeEvalsSkipSysbatch {
        id: "#23858",
        firsts: &[v(1, 8, 4)],
        replayed: true,
        reads: [],
        wording: "a node update no longer evaluates sysbatch jobs",
    }
    /// #27423 and #27419 (1.11.2; v1.11.2 nomad/node_endpoint.go:1837-1895): a node update
    /// skips a service allocation terminal on both sides, a terminated
    /// batch allocation, a system job's allocation (left to the system-job
    /// pass) and a stopped system job. The job is marked seen before the
    /// skip (:1861), so a skipped first allocation hides the job's others,
    /// and a system job running on the node gets no evaluation at all.
    NodeEvalsSkipTerminal {
        id: "#27423",
        firsts: &[v(1, 11, 2)],
        replayed: true,
        reads: [],
        wording: "a node update skips terminal allocations and stopped system jobs",
    }
    /// #27499 (1.11.3; v1.11.3 nomad/node_endpoint.go:1925): a job is marked
    /// seen only once its evaluation is made, which undoes #27423's hiding.
    NodeEvalsSeenAfterEval {
        id: "#27499",
        firsts: &[v(1, 11, 3)],
        replayed: true,
        reads: [],
        wording: "a skipped allocation no longer hides its job from a node update",
    }
    /// #15808 (1.3.10, 1.4.5, 1.5.0; v1.3.10 nomad/node_endpoint.go:515,
    /// :1214): a disconnected node that reports `ready` becomes
    /// `initializing` until its client has updated its allocations, and a
    /// down or disconnected node's allocation updates are refused; before,
    /// it became `ready` at once.
    ReconnectThroughInit {
        id: "#15808",
        firsts: &[v(1, 3, 10), v(1, 4, 5), v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "a returning node is initializing until its allocations are updated",
    }
    /// #14621 (1.4.3; v1.4.3 nomad/eval_broker.go:596-603 `Ack`,
    /// `MarkForCancel` :1020): when a job's evaluation is acknowledged, of
    /// the job's evaluations blocked behind it the broker keeps the one of
    /// highest priority, then the newest, and cancels the others; before,
    /// each ran in turn.
    BrokerCancelsBlocked {
        id: "#14621",
        firsts: &[v(1, 4, 3)],
        replayed: true,
        reads: [],
        wording: "the broker runs only the newest of a job's evaluations waiting behind another",
    }
    /// #17071 (1.3.15, 1.4.10, 1.5.6, 1.6.0; v1.6.0
    /// nomad/state/state_store.go:3261): the blocked evaluation a job's
    /// successful evaluation cancels is described as `evaluation "<id>"
    /// successful` with the successful evaluation's ID; before, with its
    /// own (v1.3.0 state_store.go:3063).
    CanceledNamesSuccess {
        id: "#17071",
        firsts: &[v(1, 3, 15), v(1, 4, 10), v(1, 5, 6), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a blocked evaluation canceled by a success names the successful evaluation",
    }
    /// F-3 (1.10.2, #25923; v1.10.2 nomad/state/state_store.go:4079): an unknown
    /// allocation reported running again cancels its max-disconnect-timeout
    /// follow-up evaluation ("allocs reconnected") when no other live
    /// allocation waits for it.
    ReconnectCancelsFollowup {
        id: "F-3",
        firsts: &[v(1, 10, 2)],
        replayed: true,
        reads: [],
        wording: "a reconnect cancels the disconnect expiry's evaluation",
    }
    /// #14001 (1.3.3, 1.4.0; v1.4.0
    /// nomad/deploymentwatcher/deployment_watcher.go:296-311): the deployment
    /// watcher auto-promotes once each canarying group has as many healthy
    /// canaries as it wants, whatever its other placed canaries; before,
    /// only with exactly as many placed canaries, every one healthy (v1.3.0
    /// :296-307).
    AutoPromoteHealthyCount {
        id: "#14001",
        firsts: &[v(1, 3, 3), v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "auto-promotion counts the healthy canaries, not every placed one",
    }
    /// #17341 (1.6.0; v1.6.0 nomad/deploymentwatcher/deployment_watcher.go
    /// `shouldFailEarly`): an unhealthy allocation of a group with a
    /// progress deadline fails its deployment at once when it has no
    /// reschedule attempt left; before, only the deadline did (v1.3.0
    /// :611-641).
    DeploymentFailsEarly {
        id: "#17341",
        firsts: &[v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "an unhealthy allocation out of reschedule attempts fails its deployment at once",
    }
    /// #27804 (2.0.1, backported as #27888; v2.0.5
    /// nomad/deploymentwatcher/deployment_watcher.go:671-673): a paused
    /// deployment does not fail at its progress deadline; before, it did.
    PausedKeepsDeadline {
        id: "#27804",
        firsts: &[v(2, 0, 1)],
        replayed: true,
        reads: [],
        wording: "a paused deployment does not fail at its progress deadline",
    }
    /// #25850 (1.10.2, backported as #25863; v1.10.2
    /// scheduler/scheduler_system.go:404, :293, :327): a task group filtered
    /// out of every node it was to be placed on is a failed placement only
    /// if it has no allocation the plan keeps (ignored or updated in
    /// place); before, it was listed whenever every placement was filtered
    /// (v1.3.0 scheduler_system.go:362).
    SystemFilteredWithExisting {
        id: "#25850",
        firsts: &[v(1, 10, 2)],
        replayed: true,
        reads: [],
        wording: "a system group filtered out everywhere fails only if it runs nowhere already",
    }
    /// #13274 (1.3.2, 1.4.0; v1.3.2 scheduler/feasible.go:1138): a node of a
    /// computed class already found eligible whose volumes are unavailable
    /// (CSI, host volumes from #18679) is skipped; before, the wrapper's
    /// eligible fast path returned no node at all (v1.3.1
    /// feasible.go:1138), which ends a service or batch placement's walk
    /// over the nodes at that node.
    EligibleClassContinues {
        id: "#13274",
        firsts: &[v(1, 3, 2), v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "a node of an eligible class with unavailable volumes is skipped, not the end of the search",
    }
    /// #15780 (1.5.0; v1.5.0 scheduler/feasible.go:164): a `per_alloc` host
    /// volume request names the volume `source[N]` of the allocation's
    /// index; before, `per_alloc` was not read for host volumes. Its
    /// validation (v1.5.0 nomad/structs/volumes.go `VolumeRequest.Validate`)
    /// accepts a `per_alloc` host volume and checks it for canaries as a CSI
    /// one; before, a `per_alloc` host volume is refused.
    HostVolumePerAlloc {
        id: "#15780",
        firsts: &[v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "per_alloc host volumes name one volume per allocation index",
    }
    /// #18679 (1.4.14, 1.5.10, 1.6.3, 1.7.0; v1.7.0 scheduler/stack.go:265,
    /// :414): host volumes are checked on every node beside CSI volumes
    /// (`tgAvailable`); before, with the class-cached checks, so the first
    /// node of a computed class decided for all of them.
    HostVolumePerNode {
        id: "#18679",
        firsts: &[v(1, 4, 14), v(1, 5, 10), v(1, 6, 3), v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "host volumes are checked on every node, not once per computed class",
    }
    /// #24522 (1.10.0; v1.10.0 nomad/structs/node.go:71, :85, read at
    /// scheduler/feasible.go:463): a node's CSI topology matches a volume's
    /// when it has every one of the volume's segments; before, only when
    /// the segments were equal.
    CsiTopologyContains {
        id: "#24522",
        firsts: &[v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a node's CSI topology matches a volume's when it contains its segments",
    }
    /// #28202 (2.0.4; v2.0.4 scheduler/feasible/feasible.go:400): a
    /// `sticky` host volume request cannot use a static host volume.
    StickyHostVolumeDynamic {
        id: "#28202",
        firsts: &[v(2, 0, 4)],
        replayed: true,
        reads: [],
        wording: "a sticky host volume request refuses a static host volume",
    }
    /// #28312 (2.0.5; v2.0.5 scheduler/feasible/feasible.go:32, :566,
    /// context.go:295): CSI volumes missing from the state filter every
    /// node as "missing CSI volume(s) a, b" before the other CSI checks
    /// (before: "missing CSI Volume a", v2.0.4 feasible.go:32), and a group
    /// with CSI volumes escapes its computed class, so its blocked
    /// evaluation carries no class eligibility. The blocked evaluation's
    /// new list of missing volumes is not in plan-inspect's output.
    CsiMissingListed {
        id: "#28312",
        firsts: &[v(2, 0, 5)],
        replayed: true,
        reads: [],
        wording: "missing CSI volumes are listed together and CSI groups escape the computed class",
    }
    /// #16907 (1.3.14, 1.4.9, 1.5.4, 1.6.0; v1.6.0 scheduler/feasible.go:572-587):
    /// a `distinct_hosts` constraint whose `RTarget` parses as a Go boolean
    /// `false` does not apply; an empty or unparsable one still does. Only
    /// the first `distinct_hosts` constraint of the job or group is read.
    /// Before, any such constraint applied (v1.3.0 feasible.go:556-564).
    DistinctHostsFalse {
        id: "#16907",
        firsts: &[v(1, 3, 14), v(1, 4, 9), v(1, 5, 4), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "distinct_hosts = false turns the constraint off",
    }
    /// #19004 (1.5.11, 1.6.4, 1.7.0; v1.7.0 scheduler/feasible.go:631-634):
    /// `distinct_hosts` counts only allocations of the job in its own
    /// namespace; before, any allocation with the job's ID, in any
    /// namespace, took the node (v1.3.0 feasible.go:608-611).
    DistinctHostsNamespace {
        id: "#19004",
        firsts: &[v(1, 5, 11), v(1, 6, 4), v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "distinct_hosts ignores jobs of the same ID in other namespaces",
    }
    /// #16826 (1.5.4, 1.6.0; v1.5.4 scheduler/generic_sched.go:796): an
    /// ephemeral disk with `migrate` prefers the previous allocation's
    /// node as `sticky` does; before, only `sticky` (v1.3.0
    /// generic_sched.go:784).
    MigrateImpliesSticky {
        id: "#16826",
        firsts: &[v(1, 5, 4), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "an ephemeral disk with migrate prefers the previous node as sticky does",
    }
    /// #26662 (1.11.0; v1.11.0 scheduler/generic_sched.go:868, :871): no
    /// node is preferred for a sticky disk when the job's node pool or
    /// datacenters differ from the previous allocation's job version;
    /// before, its node was tried even outside them.
    PreferredNodeSameTargets {
        id: "#26662",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a sticky disk prefers its node only while the job's pool and datacenters are unchanged",
    }
    /// #17652 (1.4.11 as #17653, 1.5.7, 1.6.0 with #17598; v1.4.11
    /// scheduler/generic_sched.go:565-566, :605-606, :716 `needsToSetNodes`;
    /// v1.6.0 :568-569, :609-610, :740): a placement made with an older job
    /// version (`downgradedJobForPlacement`) is placed on the ready nodes of
    /// that version's datacenters and, from 1.6.0, node pool, where they
    /// differ from the current version's, its failure's `NodesAvailable`
    /// and `NodesInPool` counting them; before, on the nodes of the current
    /// version, set once for the evaluation (v1.3.0 generic_sched.go:501).
    DowngradeTargets {
        id: "#17652",
        firsts: &[v(1, 4, 11), v(1, 5, 7), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a placement of an older job version targets that version's datacenters and node pool",
    }
    /// #26708 (1.11.0, with #26953, #27007, #26868; v1.11.0
    /// scheduler/reconciler/reconcile_node.go:35 `Compute`, :98
    /// `computeForNode`, scheduler/scheduler_system.go:229
    /// `computeJobAllocs`, scheduler_sysbatch.go:212): system jobs go
    /// through the node reconciler with system deployments.
    /// - a group with an `update` block gets a deployment when the job has
    ///   no allocation of this version (reconcile_node.go:398-416, :469
    ///   `createDeployment`); an active deployment of an older version or
    ///   of a stopped job is cancelled, a successful one set aside (:428);
    /// - the deployment's desired total is the group's feasible nodes, its
    ///   canaries `canary` percent of the destructive updates rounded up and
    ///   capped at `max_parallel`; the canaries beyond are taken out of the
    ///   plan with the stop of their allocation (scheduler_system.go:384-446,
    ///   :729 `evictUnneededCanaries`); it completes (successful) when every
    ///   group is healthy, and needs promotion while canaries wait (:840);
    /// - placements and in-place updates carry the active deployment
    ///   (:478, util.go:690), an updated group's canaries are marked so
    ///   (reconcile_node.go:297, scheduler_system.go:618);
    /// - the annotation's `Place` is the group's feasible nodes (every place,
    ///   update and ignore tuple less the nodes that turned it down, :371)
    ///   instead of the place tuples less the filtered nodes, and it counts
    ///   `Disconnect` and `Reconnect` (util.go:708);
    /// - `max_parallel` limits destructive updates per group (the group's,
    ///   else the job's, else none; a stagger is no longer needed) and no
    ///   rolling-update evaluation follows (#27007, :690; sysbatch
    ///   scheduler_sysbatch.go:516);
    /// - an allocation on a not-ready node whose job changed is stopped
    ///   (#26953, reconcile_node.go:268); before, it was left alone. The
    ///   diff's terminal-status checks are gone (:170, :251), which
    ///   changes nothing: it only sees live allocations.
    ///
    /// Sysbatch jobs get no deployment and keep the old `Place` count
    /// (scheduler_sysbatch.go:234, :363).
    SystemDeployments {
        id: "#26708",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "system jobs get deployments, canaries and max_parallel per group from the node reconciler",
    }
    /// #27265 (1.11.2, 2.0.0; v1.11.2 scheduler/reconciler/reconcile_node.go:150-240):
    /// the node reconciler no longer asks whether the allocation's group
    /// supports disconnected clients (nor the servers' version): every
    /// running allocation on a disconnected node is marked unknown, every
    /// unknown one is kept or, past its timeout, lost.
    SystemDisconnectUngated {
        id: "#27265",
        firsts: &[v(1, 11, 2), v(2, 0, 0)],
        replayed: true,
        reads: [],
        wording: "the system scheduler handles disconnects for every group",
    }
    /// #27284 (1.11.2, 2.0.0; v1.11.2 scheduler/scheduler_system.go:707-726):
    /// an allocation of the current deployment not yet healthy nor
    /// unhealthy counts against its group's `max_parallel`.
    SystemPendingLimit {
        id: "#27284",
        firsts: &[v(1, 11, 2), v(2, 0, 0)],
        replayed: true,
        reads: [],
        wording: "pending allocations of a system deployment count against max_parallel",
    }
    /// #27605 (1.11.3, 2.0.0; v1.11.3 scheduler/reconciler/reconcile_node.go:82-88,
    /// :534): no deployment is created while a ready node of the job's runs
    /// a client older than 1.11.0.
    SystemOldClients {
        id: "#27605",
        firsts: &[v(1, 11, 3), v(2, 0, 0)],
        replayed: true,
        reads: [],
        wording: "no system deployment while an eligible node runs a pre-1.11 client",
    }
    /// #14424 (1.3.6, 1.4.0; v1.4.0 nomad/structs/diff.go:72): a job
    /// plan's diff leaves the job's `VaultToken` out; before, a token in the
    /// job file was a field of the job's diff (v1.3.5 diff.go:71).
    DiffSkipsVaultToken {
        id: "#14424",
        firsts: &[v(1, 3, 6), v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "a job plan's diff leaves the Vault token out",
    }
    /// #19990 (1.5.16, 1.6.9, 1.7.6, 1.8.0; v1.8.0 nomad/structs/diff.go:1762,
    /// :1846 `consulProxyExposeDiff`): a job plan's diff of a Connect proxy lists
    /// its `expose` block (an `Expose` object with its `Paths`); before, an
    /// expose change did not show.
    DiffConnectExpose {
        id: "#19990",
        firsts: &[v(1, 5, 16), v(1, 6, 9), v(1, 7, 6), v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a job plan's diff shows a Connect proxy's expose paths",
    }
    /// #20144 (1.8.0; v1.8.0 nomad/structs/diff.go:1766, :1880
    /// `consulTProxyDiff`): a job plan's diff of a Connect proxy carries a
    /// `TransparentProxy` object, of type `None` and empty when the block is
    /// unchanged or absent on both sides.
    DiffTransparentProxy {
        id: "#20144",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a job plan's diff of a Connect proxy lists its transparent proxy, even unchanged",
    }
    /// #20575 (1.8.0; v1.8.0 nomad/structs/diff.go:596,
    /// structs/services.go:1538):
    /// - a job plan's task diff lists the task's volume mounts; before, a
    ///   volume mount change did not show;
    /// - a Connect `sidecar_task`'s volume mounts replace the injected
    ///   sidecar's.
    DiffTaskVolumeMounts {
        id: "#20575",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a job plan's task diff shows volume mounts",
    }
    /// #23489 (1.8.2, 1.9.0; v1.9.0 nomad/structs/diff.go:2631): a job
    /// plan's diff of a network leaves `MBits` out; before, it was a field
    /// (v1.8.1 diff.go:2631).
    DiffSkipsMbits {
        id: "#23489",
        firsts: &[v(1, 8, 2), v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a job plan's diff of a network leaves mbits out",
    }
    /// #25528 (1.10.0; v1.10.0 nomad/structs/diff.go:297): a job plan's
    /// group diff lists the group's `migrate` block; before, a migrate
    /// change did not show.
    DiffGroupMigrate {
        id: "#25528",
        firsts: &[v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a job plan's group diff shows the migrate block",
    }
    /// #25878 (1.10.2, 1.11.0; v1.11.0 nomad/structs/diff.go:1773): a job
    /// plan's diff of a Connect sidecar task lists its volume mounts.
    DiffSidecarVolumeMounts {
        id: "#25878",
        firsts: &[v(1, 10, 2), v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a job plan's diff of a sidecar task shows its volume mounts",
    }
    /// #13184 (1.3.2, 1.4.0; v1.3.2 nomad/job_endpoint_hook_connect.go:329,
    /// :456): an ingress gateway whose listener asks for TLS settings
    /// (`IsCustomizedTLS`) gets its injected task a third constraint, Consul
    /// `>= 1.11.2`.
    ConnectGatewayTls {
        id: "#13184",
        firsts: &[v(1, 3, 2), v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "a job's ingress gateway with custom TLS needs Consul 1.11.2",
    }
    /// #17065 (1.6.0; v1.6.0 nomad/job_endpoint_hook_connect.go:245, :279):
    /// the injected Connect sidecar runs on `podman` when the group's tasks
    /// use podman and none docker; before, always `docker`.
    ConnectSidecarPodman {
        id: "#17065",
        firsts: &[v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a job's Connect sidecar runs on podman in a podman-only group",
    }
    /// #19450 (1.7.2, 1.8.0; v1.8.0 nomad/job_endpoint_hook_connect.go:83,
    /// :125, :521): the constraints of an injected sidecar or gateway task
    /// name the service's Consul cluster (`${attr.consul.<cluster>.version}`,
    /// `.grpc`) when it is not `default`.
    ConnectClusterConstraints {
        id: "#19450",
        firsts: &[v(1, 7, 2), v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a job's Connect tasks are constrained on their Consul cluster",
    }
    /// #20611 (1.8.0; v1.8.0 nomad/job_endpoint_hook_connect.go:378): an
    /// injected gateway task runs on the driver guessed as for sidecars
    /// (podman in a podman-only group); before, always `docker`.
    ConnectGatewayPodman {
        id: "#20611",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a job's Connect gateway runs on podman in a podman-only group",
    }
    /// #27191 (1.11.1, 2.0.0; v2.0.5 nomad/structs/services.go:1655): a `sidecar_task`'s identities replace
    /// the injected task's.
    ConnectSidecarIdentities {
        id: "#27191",
        firsts: &[v(1, 11, 1), v(2, 0, 0)],
        replayed: true,
        reads: [],
        wording: "a job's Connect sidecar_task sets the sidecar's identities",
    }
    /// #26449 (1.11.0; v1.11.0 nomad/job_endpoint_hook_connect.go:448,
    /// :635, job_endpoint_hook_expose_check.go:140):
    /// - a gateway in a `cni/*` network gets the bind addresses of a bridge
    ///   network; before, those of a host network (none);
    /// - the Connect validator accepts a `cni/*` network for sidecars,
    ///   gateways and exposed checks, and words its network errors anew
    ///   (`connect sidecar: must have exactly one network for Consul
    ///   Connect: ...`); before, a sidecar or exposed check needed `bridge`,
    ///   a gateway `bridge` or `host` (v1.10.5 job_endpoint_hook_connect.go:637,
    ///   :670, job_endpoint_hook_expose_check.go:140).
    ConnectCni {
        id: "#26449",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a job's Connect services may use a cni network",
    }
    /// #16550 (1.3.14, 1.4.9, 1.5.4, 1.6.0; v1.6.0
    /// nomad/job_endpoint_hook_connect.go:558): the Connect validator writes
    /// an upstream's listen address as `net.JoinHostPort` does (an IPv6
    /// address in brackets) when it compares them; before, `addr:port`
    /// (v1.3.0 job_endpoint_hook_connect.go:512).
    ConnectUpstreamHostPort {
        id: "#16550",
        firsts: &[v(1, 3, 14), v(1, 4, 9), v(1, 5, 4), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a job's Connect upstream addresses are compared in host:port form",
    }
    /// #20244 (1.8.0; v1.8.0 nomad/job_endpoint_hook_connect.go:593-613,
    /// job_endpoint_hooks.go:355): a group service's transparent proxy
    /// gets the group the `consul-cni` and Nomad 1.8 constraints, and the
    /// Connect validator refuses it with a network `dns` block (unless
    /// `no_dns`), an excluded inbound port that is neither a number nor a
    /// reserved port's label, or a second Connect service in the group.
    ConnectTransparentProxy {
        id: "#20244",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a job's Connect transparent proxy is constrained and validated",
    }
    /// #22312 (1.8.1; v1.8.1 nomad/job_endpoint_hook_connect.go:584): an
    /// upstream bound to a unix socket listens on its socket path, so two
    /// socket upstreams no longer collide on `:0`.
    ConnectUpstreamSocket {
        id: "#22312",
        firsts: &[v(1, 8, 1)],
        replayed: true,
        reads: [],
        wording: "a job's Connect upstreams on unix sockets are told apart by path",
    }
    /// #24329 (1.9.2; v1.9.2 nomad/structs/services.go `validateConsulService`):
    /// a Connect native service without a port is refused (`Service <name>
    /// is Connect Native and requires setting the port`).
    ConnectNativePort {
        id: "#24329",
        firsts: &[v(1, 9, 2)],
        replayed: true,
        reads: [],
        wording: "a job's Connect native service must set its port",
    }
    /// #15749 (1.3.10, 1.4.5, 1.5.0; v1.5.0 nomad/structs/services.go
    /// `ConsulIngressService.Validate`): a service of an HTTP-like ingress
    /// listener may leave out its hosts, and a `*` service with hosts is
    /// refused; before, a service other than `*` needed hosts (v1.3.0
    /// services.go `ConsulIngressService.Validate`).
    IngressHostsOptional {
        id: "#15749",
        firsts: &[v(1, 3, 10), v(1, 4, 5), v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "a job's HTTP ingress gateway services need no hosts",
    }
    /// #28362 (2.0.5; v2.0.5 nomad/structs/services.go:487): a service
    /// check's hash, whose first six hex digits name the port of an exposed
    /// check, is SHA-256; before, SHA-1.
    CheckHashSha256 {
        id: "#28362",
        firsts: &[v(2, 0, 5)],
        replayed: true,
        reads: [],
        wording: "an exposed check's port is named from a SHA-256 hash",
    }
    /// #17198 (1.3.15, 1.4.10, 1.5.6, 1.6.0; v1.6.0 scheduler/spread.go:187-200):
    /// a spread target of 0% scores the lowest boost the evaluation has seen
    /// so far (starting at -1) instead of dividing by zero (v1.3.0
    /// spread.go:178 gave -Inf, which sank the node's final score); every
    /// targeted boost lower than it becomes the new lowest.
    SpreadLowestBoost {
        id: "#17198",
        firsts: &[v(1, 3, 15), v(1, 4, 10), v(1, 5, 6), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a 0% spread target scores the lowest boost so far instead of -Inf",
    }
    /// #17195 (1.3.15, 1.4.10, 1.5.6, 1.6.0; v1.6.0 scheduler/spread.go:99,
    /// :108, propertyset.go:258, :270, :370): values that no target of a
    /// spread block names count together as the implicit target, so a node
    /// of one such value sees the allocations of all of them; before, each
    /// value counted alone against the whole implicit remainder (v1.3.0
    /// propertyset.go:250-270).
    SpreadImplicitTargets {
        id: "#17195",
        firsts: &[v(1, 3, 15), v(1, 4, 10), v(1, 5, 6), v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "values outside a spread's targets count together as its implicit target",
    }
    /// #18818 (1.7.0; v1.7.0 scheduler/rank.go:499-510, numa_ce.go:25-35,
    /// nomad/job_endpoint_hook_numa_ce.go:16-24): reserved cores are chosen
    /// by a core selector that honours a task's `numa` affinity in Nomad
    /// Enterprise (a node without a NUMA node that can hold them is
    /// exhausted as "numa-cores"); the community edition takes the first
    /// free cores whatever the affinity and its job registration rejects an
    /// affinity other than `none`. The replay is the community edition's and
    /// warns about a `prefer` or `require` affinity. Such a group is
    /// constrained to Linux clients of Nomad 1.6.3 or later (v1.7.0
    /// nomad/job_endpoint_hooks.go:68, :74).
    NumaCores {
        id: "#18818",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "reserved cores follow the task's numa affinity (Nomad Enterprise)",
    }
    /// #10446 (1.4.0; v1.4.0 nomad/structs/funcs.go:176; v1.3.16 :176):
    /// an allocation stops holding its resources (`AllocsFit`, the network
    /// index, the device accounter) once its client reports it terminal;
    /// before, also once the server wants it stopped.
    ClientTerminalFit {
        id: "#10446",
        firsts: &[v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "an allocation the server stops holds its resources until its client stops it",
    }
    /// #23386 (1.8.2 as #23408, 1.9.0; v1.8.2 nomad/structs/structs.go:3215;
    /// v1.8.1 :3194): a node's CPU shares are its topology's total compute,
    /// disabled cores included, rather than its usable compute.
    TotalCompute {
        id: "#23386",
        firsts: &[v(1, 8, 2), v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a node's CPU is its topology's total compute",
    }
    /// #24297 (1.9.2, 1.10.0; v1.9.2 nomad/structs/structs.go:3875; v1.9.1
    /// `AllocatedResources.Comparable` skips them): poststart tasks count
    /// with the main tasks.
    PoststartCounted {
        id: "#24297",
        firsts: &[v(1, 9, 2), v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "poststart tasks count toward an allocation's resources",
    }
    /// #24304 (1.9.4 as #24530, 1.10.0; v1.9.4 nomad/structs/structs.go:3850,
    /// v1.9.3 :3850): an allocation's resources are the largest of its
    /// prestart, main (with prestart sidecars and poststart tasks) and
    /// poststop phases, and its reserved cores count outside any phase.
    LifecyclePhases {
        id: "#24304",
        firsts: &[v(1, 9, 4), v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "an allocation's resources are its largest lifecycle phase",
    }
    /// #26951 (1.11.0; v1.10.5 nomad/structs/network.go:211-212, :239-242,
    /// gone at v1.11.0): a node without `NodeResources` networks no longer
    /// offers its pre-0.9 `Resources` networks, nor keeps back its pre-0.9
    /// `Reserved` ports.
    LegacyNodeNetworksRemoved {
        id: "#26951",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a node's pre-0.9 networks are ignored",
    }
    /// #16401 (1.3.11 as #16408, 1.4.6, 1.5.1 as #16410; v1.3.11
    /// nomad/structs/network.go:506, :548; v1.3.10 :503 `AssignPorts`
    /// without it): a dynamic port is not one the same offer already took.
    DynamicPortsAvoidOffer {
        id: "#16401",
        firsts: &[v(1, 3, 11), v(1, 4, 6), v(1, 5, 1)],
        replayed: true,
        reads: [],
        wording: "a dynamic port is not one the same offer already took",
    }
    /// #23702 (1.8.3 as #23706, 1.9.0; v1.8.3 nomad/structs/network.go:529;
    /// v1.8.2 :506 `AssignPorts`): a reserved port taken on one address of
    /// a host network is tried on the next; before, the offer failed.
    ReservedPortNextAddress {
        id: "#23702",
        firsts: &[v(1, 8, 3), v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a reserved port taken on one address is tried on the next",
    }
    /// #25785 (1.10.2 as #25925, 1.11.0; v1.10.2 nomad/structs/funcs.go:146;
    /// v1.10.1 :141 `AllocsFit` without it): `client.node_max_allocs` limits
    /// a node's allocations ("max allocation exceeded").
    NodeMaxAllocs {
        id: "#25785",
        firsts: &[v(1, 10, 2), v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a node's node_max_allocs limits its allocations",
    }
    /// #28182 (2.0.4 as #28184; v2.0.4 scheduler/feasible/rank.go:391-393;
    /// v2.0.3 :384-385): under oversubscription `memory_max = -1` (no limit)
    /// is kept and a task without a ceiling gets none, rather than its
    /// secrets' size.
    MemoryNoLimit {
        id: "#28182",
        firsts: &[v(2, 0, 4)],
        replayed: true,
        reads: [],
        wording: "memory_max = -1 stays unlimited under oversubscription",
    }
    /// #25800 (1.10.2 as #25890, 1.11.0; v1.10.2 scheduler/rank.go:976;
    /// v1.10.1 :977 inside the matched branch): a node matching none of the
    /// affinities still gets its "node-affinity" score of 0, which lowers
    /// its mean.
    ZeroAffinityScored {
        id: "#25800",
        firsts: &[v(1, 10, 2), v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a node matching no affinity is scored 0 for it",
    }
    /// #19933 (1.5.15, 1.6.8, 1.7.5 as #19938-#19940, 1.8.0; v1.7.5
    /// scheduler/rank.go:325, :343; v1.3.0 rank.go:313-317): a node where
    /// preempting for a port or bandwidth found nothing, or whose offer
    /// still failed after the evictions, counts as exhausted in that
    /// network dimension; before, it was skipped unrecorded.
    NetworkPreemptionExhausts {
        id: "#19933",
        firsts: &[v(1, 5, 15), v(1, 6, 8), v(1, 7, 5), v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a failed network preemption counts the node as exhausted",
    }
    /// #20346 (1.7.7 as #20358, 1.8.0; v1.7.7 scheduler/rank.go:447, :464;
    /// v1.3.0 rank.go:424-427): the same for a device request.
    DevicePreemptionExhausts {
        id: "#20346",
        firsts: &[v(1, 7, 7), v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a failed device preemption counts the node as exhausted",
    }
    /// #25705 (1.10.1 as #25724, 1.11.0; v1.10.1 scheduler/util.go:950;
    /// v1.10.0 `genericAllocUpdateFn` without it): an in-place update keeps
    /// its allocation's reserved cores; before, it took its new offer's.
    InPlaceKeepsCores {
        id: "#25705",
        firsts: &[v(1, 10, 1), v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "an in-place update keeps its reserved cores",
    }
    /// #15455 (1.4.5, 1.5.0; v1.5.0 scheduler/feasible.go:1383-1388, v1.4.5
    /// :1376): `${device.ids}` in a device constraint or affinity is the
    /// device's instance IDs joined by commas, unhealthy ones included;
    /// before, an unknown target, not found (v1.3.0 feasible.go:1360).
    DeviceIdsTarget {
        id: "#15455",
        firsts: &[v(1, 4, 5), v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "${device.ids} names a device's instances in device constraints",
    }
    /// #18141 (1.5.9, 1.6.2, 1.7.0; v1.7.0 scheduler/device.go:117-121,
    /// :138-166): the device allocator offers only free instances whose ID
    /// meets the request's `${device.ids}` constraints (the other side
    /// resolved on the left, the ID on the right). It still asks only that
    /// the device have enough free instances, so an offer can come out
    /// short of the count, and the task gets fewer instances than it asked.
    DeviceIdsFiltered {
        id: "#18141",
        firsts: &[v(1, 5, 9), v(1, 6, 2), v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "device instances are offered only when their ID meets ${device.ids}",
    }
    /// #26649 (1.11.0; v1.11.0 scheduler/feasible/feasible.go:1531-1540,
    /// v1.10.5 scheduler/feasible.go:1471): the `DeviceChecker` counts one
    /// request over every matching device of the node; before, one device
    /// had to have the whole count. The allocator (v1.11.0
    /// scheduler/feasible/device.go:122-143) still takes every instance from
    /// one device, so a node that passes only by adding devices up is
    /// exhausted as "devices: no devices match request".
    DeviceCountSpans {
        id: "#26649",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "one device request may be counted over several devices of a node",
    }
    /// #27177 (1.11.1, 2.0.0; v2.0.0 scheduler/feasible/device.go:122-150):
    /// a device offers only when as many free instances as asked meet the
    /// `${device.ids}` constraints, so no offer is short (v1.11.0
    /// scheduler/feasible/device.go:123-138 counted every free instance).
    DeviceIdsCounted {
        id: "#27177",
        firsts: &[v(1, 11, 1), v(2, 0, 0)],
        replayed: true,
        reads: [],
        wording: "a device offers only instances that meet ${device.ids}, never too few",
    }
    /// #27880 (2.0.1; v2.0.1 scheduler/feasible/rank.go:644): after
    /// preempting for a device request, the task's later device requests
    /// are offered from the allocator that counts the victims gone; before
    /// (v2.0.0 rank.go:630-655, v1.3.0 scheduler/rank.go:436), from the
    /// first one, where the victims still hold their instances.
    DeviceEvictionFrees {
        id: "#27880",
        firsts: &[v(2, 0, 1)],
        replayed: true,
        reads: [],
        wording: "instances freed by a device preemption serve the task's later requests",
    }
    /// #13651 (1.3.2 as #13728, 1.4.0; v1.4.0 scheduler/feasible.go:800,
    /// v1.3.2 :769-800): a `${...}` target the scheduler does not know resolves
    /// to the empty string, not found; before, to nil (v1.3.0
    /// feasible.go:800), so `!=` against `""` held and now fails. The same
    /// change merges a node's reserved port ranges, so overlapping ones no
    /// longer collide and only one that does not parse fails the node
    /// ("network: invalid node", v1.3.2 scheduler/rank.go:220; v1.3.0
    /// nomad/structs/network.go:209-226).
    UnknownTargetEmpty {
        id: "#13651",
        firsts: &[v(1, 3, 2), v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "an unknown constraint target is the empty string instead of nil",
    }
    /// #14722 (1.4.0; v1.3.0 scheduler/feasible.go:820-821, :853-880; v1.4.0
    /// feasible.go:821-822, :854-910): `<`, `<=`, `>` and `>=` in a
    /// constraint or affinity compare both sides as integers when both
    /// parse as one, else as floats when both parse as one, else as
    /// strings; before, always as strings ("10" < "9").
    NumericOrder {
        id: "#14722",
        firsts: &[v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "constraint orderings compare numbers as numbers",
    }
    /// #14300 (1.4.2, 1.5.0; v1.4.2 scheduler/feasible.go:386, v1.5.0 :393):
    /// a group whose network mode is `none` passes `NetworkChecker` on any
    /// node; before, it needed a fingerprinted network of mode `none`,
    /// which no client reports (v1.3.0 feasible.go:383-398).
    NetworkModeNone {
        id: "#14300",
        firsts: &[v(1, 4, 2), v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "a group with network mode none needs no network on the node",
    }
    /// #17548 (1.6.0; v1.6.0 scheduler/feasible.go:812-813): `${node.pool}`
    /// in a constraint, affinity, spread, `distinct_property` or host
    /// network names the node's pool; before, it is an unknown target.
    NodePoolTarget {
        id: "#17548",
        firsts: &[v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "${node.pool} names the node's pool in constraints and affinities",
    }
    /// #13715 (1.4.0; v1.4.0 nomad/structs/services.go `validateNomad`,
    /// `validateCommon`): a Nomad service may have `tcp` and `http` checks
    /// with Nomad's own restrictions, and a check's type and HTTP path
    /// errors are worded anew; before, a Nomad service with any check is
    /// refused (v1.3.0 services.go `validateNomadService`).
    NomadServiceChecks {
        id: "#13715",
        firsts: &[v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "a Nomad service may have tcp and http checks",
    }
    /// #17334 (1.6.0; v1.6.0 nomad/structs/services.go `validateNomad`): a
    /// Nomad service's check may not set `tls_server_name`, which is part of
    /// a check's hash when set (v1.6.0 services.go:479; v1.5.17 without it).
    NomadCheckTlsServerName {
        id: "#17334",
        firsts: &[v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a Nomad service's check may not set tls_server_name",
    }
    /// #18333 (1.4.13, 1.5.9, 1.6.2, 1.7.0; v1.7.0 nomad/structs/services.go
    /// `validateNomad`): a Nomad service's check may not set
    /// `tls_skip_verify`; undone by #24781 (1.9.6, 1.10.0), which supports it.
    NomadCheckTlsSkipVerify {
        id: "#18333",
        firsts: &[v(1, 4, 13), v(1, 5, 9), v(1, 6, 2), v(1, 7, 0)],
        undone_by: &[v(1, 9, 6), v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a Nomad service's check may not set tls_skip_verify",
    }
    /// #18239 (1.7.0; v1.7.0 nomad/structs/services.go `validateIdentity`):
    /// a service's identity must name an audience. The service has an
    /// `identity` block from here (v1.7.0 api/services.go:246), which a job
    /// plan's service diff shows (nomad/structs/diff.go:812; v1.6.10
    /// diff.go:691 `serviceDiff` without it).
    ServiceIdentityAudience {
        id: "#18239",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "a service's identity must name at least one audience",
    }
    /// #19336 (1.7.3, 1.8.0; v1.8.0 nomad/structs/services.go
    /// `validateConsul`, `validateNomad`): a check's
    /// `failures_before_warning` is checked as `failures_before_critical` is,
    /// and is part of the check's hash when set (v1.7.3
    /// nomad/structs/services.go:517; v1.7.2 without it).
    CheckFailuresBeforeWarning {
        id: "#19336",
        firsts: &[v(1, 7, 3), v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a check's failures_before_warning is validated",
    }
    /// #22397 (1.8.1 as #23281, 1.9.0; v1.8.1 nomad/structs/services.go:463,
    /// :505; v1.8.0 has no notes): a Consul check's notes may not be longer
    /// than 255 characters, and they are part of the check's hash.
    CheckNotesLength {
        id: "#22397",
        firsts: &[v(1, 8, 1), v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a Consul check's notes are at most 255 characters",
    }
    /// #25632 (1.10.4, 1.11.0; v1.11.0 nomad/structs/services.go
    /// `Service.Validate`, structs.go `validateServices`): `alloc_ipv6` is
    /// an address mode of group services and checks.
    AllocIpv6AddressMode {
        id: "#25632",
        firsts: &[v(1, 10, 4), v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "services and checks accept address_mode alloc_ipv6",
    }
    /// #26170 (1.10.3, 1.11.0; v1.11.0 nomad/structs/services.go
    /// `validateConsulService`): a Consul service's `kind` must be one of
    /// Consul's service kinds or empty.
    ConsulServiceKind {
        id: "#26170",
        firsts: &[v(1, 10, 3), v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a Consul service's kind must be a Consul service kind",
    }
    /// #13869 (1.3.3 as #13874, 1.4.0; v1.3.3 nomad/structs/structs.go:6620-6730,
    /// v2.0.5 :7432-7541): `TaskGroup.validateServices` refuses two services
    /// of a group with the same name and port on the same task (or both on
    /// the group), listed once each as `task->name:port`, sorted.
    ServiceUniqueness {
        id: "#13869",
        firsts: &[v(1, 3, 3), v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "services of a group must differ by task, name or port",
    }
    /// #14033 (1.4.0; v1.4.0 nomad/structs/services.go:644, :226,
    /// structs.go `validateServices`): the server sets a task service's
    /// `task` to its task, and a check's `task` to its service's, and a
    /// task-level service or check may name only its own task; before, a
    /// task-level check naming any task is refused (v1.3.0 structs.go:6608).
    ServiceTaskNames {
        id: "#14033",
        firsts: &[v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "services and checks carry their task's name",
    }
    /// #14864 (1.4.2; v1.4.1 nomad/structs/structs.go:6678-6681, removed at
    /// v1.4.2): a group service's check naming a task may be of
    /// any type; before, only `script` and `grpc` checks may name one.
    GroupCheckTaskAnyType {
        id: "#14864",
        firsts: &[v(1, 4, 2)],
        replayed: true,
        reads: [],
        wording: "a group service's check of any type may name a task",
    }
    /// #19886 (1.8.0; v1.8.0 nomad/structs/structs.go `TaskGroup.Validate`,
    /// v1.7.7 :6858, :6907): the errors of a group's restart and reschedule
    /// policies and update and migrate blocks join the group's list one by
    /// one; before,
    /// each one's list is one bullet of it, worded as its own multierror.
    GroupErrorsFlattened {
        id: "#19886",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a group's policy errors are listed one by one",
    }
    /// #15941 (1.3.10, 1.4.5, 1.5.0; v1.5.0 nomad/structs/structs.go
    /// `Job.Validate`, `TaskGroup.Validate`, `Spread.Validate`): the words
    /// refusing an affinity or spread in a system job, and a spread's
    /// weight, say `block` where they said `stanza`; so do the template
    /// `vault_grace` and task `IOPS` warnings (v1.3.10
    /// nomad/structs/structs.go:7811, v1.4.5 :7895; v1.4.4 :7860).
    StanzaIsBlock {
        id: "#15941",
        firsts: &[v(1, 3, 10), v(1, 4, 5), v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "validation errors say block instead of stanza",
    }
    /// #26279 (1.11.0; v1.11.0 api/tasks.go `TaskGroup.Canonicalize`,
    /// nomad/structs/structs.go `TaskGroup.Validate`): a sysbatch group no
    /// longer gets the API's default reschedule policy, and one it sets is
    /// refused as a system group's is (`System or sysbatch jobs should not
    /// have a reschedule policy`; before, `System jobs should not ...` and
    /// a sysbatch policy was checked as a batch one is).
    SysbatchNoReschedule {
        id: "#26279",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a sysbatch group has no reschedule policy",
    }
    /// #26777 (1.11.0; v1.11.0 api/jobs.go `Job.Canonicalize`): a system
    /// job without an update block gets the API's default one, as a service
    /// job does, so its groups get it too (and with it a system deployment,
    /// #26708); before, a system job had none.
    SystemUpdateDefault {
        id: "#26777",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a system job without an update block gets the default one",
    }
    /// #25298 (1.10.0; v1.10.0 api/tasks.go `TaskGroup.Canonicalize`): a
    /// group without a `consul` block no longer gets an empty one (the job's
    /// Consul namespace, and from 1.7.0 the cluster `default`); before,
    /// every group the HTTP API registers has one.
    GroupConsulOptional {
        id: "#25298",
        firsts: &[v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a group without a consul block gets none",
    }
    /// #17379, #17562 (1.6.0; v1.6.0 api/jobs.go:1024,
    /// nomad/job_endpoint_hook_node_pool_oss.go:28; v1.5.17 api/jobs.go:886
    /// has no pool): a job has a `node_pool`, which the API leaves empty
    /// and the register endpoint's mutator sets to `default`.
    JobNodePool {
        id: "#17379",
        firsts: &[v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a job without a node_pool is stored in the default pool",
    }
    /// #16084 (1.5.0; v1.5.0 nomad/job_endpoint_hooks.go:141, :301; v1.4.14
    /// nomad/structs/structs.go:4352): a job's priority 0 is the servers'
    /// default (50), and the priority range is checked by the register
    /// endpoint after the job's own validation (`job priority must be ...`);
    /// before, by `Job.Validate` (`Job priority must be ...`), so 0 is
    /// refused.
    JobPriorityRange {
        id: "#16084",
        firsts: &[v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "a job's priority 0 is the default, and its range is checked by the endpoint",
    }
    /// #25217 (1.10.0; v1.9.7 api/jobs.go:1176, gone at v1.10.0): the API's
    /// job no longer has a `ConsulToken`; before, the API fills it empty.
    ConsulTokensRemoved {
        id: "#25217",
        firsts: &[v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a job has no Consul token",
    }
    /// #17858 (1.6.2, 1.7.0; v1.6.2 api/jobs.go:839,
    /// nomad/structs/structs.go:4802; v1.7.0 structs.go:5797): a periodic
    /// block may list several specs (`crons`, the API's `Specs`, empty by
    /// default), which are validated and whose earliest next launch counts,
    /// and a single `cron` is warned as deprecated; v1.6.1 api/jobs.go:825
    /// has the one spec only.
    PeriodicCrons {
        id: "#17858",
        firsts: &[v(1, 6, 2), v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "a periodic block may list several crons, and a single cron is deprecated",
    }
    /// #15141 (1.4.3 as #15148, 1.5.0; v1.4.3 api/tasks.go:894; v1.4.2
    /// api/tasks.go:852 `Template.Canonicalize` without it): a template has
    /// `error_on_missing_key`, false by default.
    TemplateErrMissingKey {
        id: "#15141",
        firsts: &[v(1, 4, 3), v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "a template has error_on_missing_key",
    }
    /// #25922 (1.10.2 as #25945, 1.11.0; v1.10.2 api/tasks.go:990; v1.10.1
    /// api/tasks.go:957 `Template.Canonicalize` without it): a template has
    /// `once`, false by default.
    TemplateOnce {
        id: "#25922",
        firsts: &[v(1, 10, 2), v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a template has once",
    }
    /// #13343 (1.6.0; v1.6.0 api/tasks.go:931; v1.5.17 api/tasks.go:926
    /// `Vault.Canonicalize` without it): a `vault` block has
    /// `disable_file`, false by default.
    VaultDisableFile {
        id: "#13343",
        firsts: &[v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a vault block has disable_file",
    }
    /// #18408 (1.7.0; v1.7.0 api/tasks.go:957; v1.6.10 api/tasks.go:933
    /// `Vault.Canonicalize` without it): a `vault` block has a `cluster`,
    /// `default` unless set.
    VaultCluster {
        id: "#18408",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "a vault block has a cluster",
    }
    /// #18466 (1.7.0; v1.7.0 nomad/structs/services.go:712,
    /// nomad/structs/structs.go:7266, :8119-8130): a service's identity
    /// warnings are the group's or task's, prefixed with the service, and a
    /// task's template warnings join its list one by one; before (v1.6.10
    /// structs.go:8031) each template's list is one nested entry.
    ServiceWarnings {
        id: "#18466",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "a service's identity is warned about",
    }
    /// #27782 (2.0.1 as #27867; v2.0.1 nomad/structs/structs.go:4887,
    /// :4893; v2.0.0 structs.go:4884 `Job.Warnings` without it): a group
    /// with services whose tasks have no `shutdown_delay` is warned about.
    ShutdownDelayWarnings {
        id: "#27782",
        firsts: &[v(2, 0, 1)],
        replayed: true,
        reads: [],
        wording: "services whose tasks have no shutdown_delay are warned about",
    }
    /// #18521 (1.7.0; v1.7.0 nomad/job_endpoint_hook_consul_ce.go:83, :92,
    /// nomad/job_endpoint.go:73; no such hook at v1.6.10): the register
    /// endpoint's Consul hook sets the `default` cluster on a group's or
    /// task's `consul` block and on Consul services without one, and the
    /// community edition refuses any other cluster.
    ConsulClusterHook {
        id: "#18521",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "the Consul hook fills the default cluster and refuses others",
    }
    /// #18363, #18634, #18932 (1.7.0, the last as #19277; v1.7.0
    /// nomad/job_endpoint_hook_implicit_identities.go:20, :57, :87,
    /// nomad/job_endpoint_hooks.go:390, :422; no such hook at v1.6.10): the
    /// implicit identities mutator names a Consul service's identity after
    /// the service and gives a group with service or task identities a
    /// Nomad 1.7 client constraint; `jobValidate` refuses a service
    /// identity without a name.
    ImplicitIdentities {
        id: "#18363",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "service identities are named and constrain the group to 1.7 clients",
    }
    /// #18528 (1.7.0; v1.7.0 nomad/job_endpoint_hooks.go:245, :251, :271,
    /// :287; v1.6.10 job_endpoint_hooks.go:16, :210): the implied Vault and
    /// Consul constraints name a non-default cluster
    /// (`${attr.vault.<cluster>.version}`, `${attr.consul.<cluster>.version}`),
    /// one per Consul service when the group has group services; before,
    /// one Consul constraint per group.
    ClusterConstraints {
        id: "#18528",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "implied Vault and Consul constraints name the service's cluster",
    }
    /// #22229 (1.8.0 as #22240, 1.9.0; v1.8.0 nomad/job_endpoint_hooks.go:334,
    /// :341; v1.7.7 :245, :251): a task service's Consul constraint goes on
    /// its task, whether or not the group has services; before, on the
    /// group, and only when the group has services of its own.
    TaskServiceConstraints {
        id: "#22229",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a task service's Consul constraint goes on its task",
    }
    /// #14868 (1.4.2, 1.5.0; v1.4.2 nomad/job_endpoint_hooks.go:193, v1.5.0
    /// :201; v1.4.1 without it): a group with checks on Nomad services gets
    /// the constraint `${attr.nomad.version} semver >= 1.4.0`.
    NomadChecksConstraint {
        id: "#14868",
        firsts: &[v(1, 4, 2), v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "a group with Nomad service checks is constrained to 1.4 clients",
    }
    /// #15473 (1.8.0; v1.8.0 nomad/job_endpoint_hooks.go:24-28; v1.7.7
    /// without it): a group with a `bridge` network gets a constraint on
    /// each CNI plugin bridge mode needs (`${attr.plugins.cni.version.*}`).
    CniBridgeConstraints {
        id: "#15473",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a bridge network constrains the group to nodes with its CNI plugins",
    }
    /// #22201 (1.8.0; v1.8.0 nomad/job_endpoint_hooks.go:157, :280,
    /// job_endpoint_hook_sched_ce.go:18; v1.7.7 without them): a task
    /// `schedule` constrains its group to Nomad 1.8 clients and is refused
    /// by the community edition.
    TaskSchedules {
        id: "#22201",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a task schedule is refused as Enterprise-only",
    }
    /// #26858 (1.11.0; v1.11.0 nomad/job_endpoint_hooks.go:549; v1.10.5
    /// without it): a job whose groups count more than `job_max_count`
    /// (50000 by default) allocations is refused.
    JobMaxCount {
        id: "#26858",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a job's total count may not pass job_max_count",
    }
    /// #24186 (1.9.2 as #24296, 1.10.0; v1.9.2 api/services.go:249,
    /// nomad/structs/diff.go:851; v1.9.1 diff.go:803 `serviceDiff` without
    /// them): a service has `weights`, so a job plan's service diff shows
    /// them; before, the API's service has no such field and drops it.
    ServiceWeights {
        id: "#24186",
        firsts: &[v(1, 9, 2), v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a service's weights are part of the service",
    }
    /// #27355 (1.11.2, 2.0.0; v2.0.5 nomad/structs/constraint.go:34,
    /// structs.go:10062): a constraint's interpolated attribute must be one
    /// Nomad resolves (`${node.*}` fields, `${attr.`, `${device.`,
    /// `${meta.`), and a missing one is worded `no attribute provided but
    /// is required by operator`.
    ConstraintAttributeChecked {
        id: "#27355",
        firsts: &[v(1, 11, 2), v(2, 0, 0)],
        replayed: true,
        reads: [],
        wording: "a constraint's attribute is validated",
    }
    /// #27170 (1.11.1, 2.0.0; v1.11.1 go.mod): go-version 1.8.0 words its
    /// errors in lower case, so a `version` constraint or affinity target
    /// that does not parse is refused with `malformed constraint: ...` and
    /// a version number too large with `error parsing version: ...`.
    GoVersionLowerCase {
        id: "#27170",
        firsts: &[v(1, 11, 1), v(2, 0, 0)],
        replayed: true,
        reads: [],
        wording: "go-version's errors are in lower case",
    }
    /// #23956 (1.9.0; v1.9.0 nomad/structs/structs.go `validateNetworks`):
    /// a static port with `ignore_collision` may repeat another's value on
    /// its host network, and only in a `host` (or unset) network mode
    /// (`Port "http" collision may not be ignored on non-host network mode
    /// "bridge"`); before, the field is not Nomad's and a repeat is refused.
    /// Such a port may share its value with another offer's (v1.9.0
    /// nomad/structs/network.go:438).
    IgnoreCollision {
        id: "#23956",
        firsts: &[v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a static port may ignore collisions in host mode",
    }
    /// #17344 (1.6.0; v1.6.0 nomad/structs/structs.go `Task.Validate`,
    /// `LogConfig.Validate`): whether a task's log files fit the group's
    /// ephemeral disk is one of its log config's errors; before (v1.5.17
    /// structs.go `Task.Validate`) it was the task's own error after its
    /// services. Its mounts of an empty or undefined volume become its own
    /// errors (before, the group's), and a service task's kill timeout may
    /// not pass its group's progress deadline.
    TaskValidateRefactor {
        id: "#17344",
        firsts: &[v(1, 6, 0)],
        replayed: true,
        reads: [],
        wording: "a task's log storage is checked with its log config",
    }
    /// #27001 (1.11.0; v1.11.0 nomad/structs/structs.go `Task.Validate`):
    /// a task may not be named `alloc`.
    TaskNamedAlloc {
        id: "#27001",
        firsts: &[v(1, 11, 0)],
        replayed: true,
        reads: [],
        wording: "a task may not be named alloc",
    }
    /// #27803 (2.0.3; v2.0.5 nomad/structs/structs.go:7135): a group's
    /// `max_run_duration` must be above zero and only batch and sysbatch
    /// jobs may set it.
    MaxRunDuration {
        id: "#27803",
        firsts: &[v(2, 0, 3)],
        replayed: true,
        reads: [],
        wording: "a group's max_run_duration is validated",
    }
    /// #16030 (1.3.10, 1.4.5, 1.5.0; v1.5.0 nomad/structs/volumes.go
    /// `VolumeRequest.Validate`): a `per_alloc` volume is refused in system
    /// and sysbatch jobs.
    PerAllocNotSystem {
        id: "#16030",
        firsts: &[v(1, 3, 10), v(1, 4, 5), v(1, 5, 0)],
        replayed: true,
        reads: [],
        wording: "a per_alloc volume is refused in system and sysbatch jobs",
    }
    /// #24896 (1.10.0; v1.10.0 nomad/structs/volumes.go
    /// `VolumeRequest.Validate`): a host volume may have an attachment mode
    /// and one of the host access modes (a reader one read-only); before,
    /// any access or attachment mode on a host volume is refused.
    HostVolumeModes {
        id: "#24896",
        firsts: &[v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a host volume may have access and attachment modes",
    }
    /// #24714 (1.10.0; v1.10.0 nomad/structs/volumes.go
    /// `VolumeRequest.Validate`): a volume may not be both `per_alloc` and
    /// `sticky`.
    StickyPerAlloc {
        id: "#24714",
        firsts: &[v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a volume may not be both per_alloc and sticky",
    }
    /// #27159 (1.11.1, 2.0.0; v1.11.1 nomad/structs/volumes.go
    /// `VolumeRequest.Validate`): a host volume's unknown access mode is
    /// named in its error; before, Go printed `%!s(MISSING)` for it.
    HostAccessModeNamed {
        id: "#27159",
        firsts: &[v(1, 11, 1), v(2, 0, 0)],
        replayed: true,
        reads: [],
        wording: "a host volume's unknown access mode is named",
    }
    /// #19839 (1.8.0; v1.8.0 nomad/structs/volumes.go `VolumeMount.Validate`,
    /// structs.go `Task.Validate`): a volume mount's own faults (empty
    /// volume, propagation mode, SELinux label) are one nested list,
    /// `Volume Mount (0) is invalid: "..."`, after its undefined volume.
    VolumeMountValidate {
        id: "#19839",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a volume mount's faults are listed together, with its SELinux label",
    }
    /// #19670 (1.7.3; v1.7.3 nomad/structs/structs.go `Resources.Validate`):
    /// `memory_max = -1` (no limit) is accepted; before, it is below the
    /// memory and refused.
    MemoryMaxNoLimit {
        id: "#19670",
        firsts: &[v(1, 7, 3)],
        replayed: true,
        reads: [],
        wording: "memory_max may be -1",
    }
    /// #23837 (1.9.0; v1.9.0 nomad/structs/structs.go `Resources.Validate`):
    /// a `numa` block's affinity and the devices it names are validated.
    NumaValidate {
        id: "#23837",
        firsts: &[v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a task's numa block is validated",
    }
    /// #13972 (1.3.4, 1.4.0; v1.4.0 nomad/structs/structs.go
    /// `Template.Validate`): a template's change mode may be `script`, with a
    /// `change_script` that names a command (a missing `change_script`
    /// panics Nomad 1.3.4 until #14374, 1.3.5; plan-inspect refuses it as
    /// 1.3.5 does); before, `script` is an invalid change mode.
    TemplateChangeScript {
        id: "#13972",
        firsts: &[v(1, 3, 4), v(1, 4, 0)],
        replayed: true,
        reads: [],
        wording: "a template's change mode may be script",
    }
    /// #18292 (1.8.0; v1.8.0 nomad/structs/structs.go `Job.Validate`): a
    /// job's `ui` description may be at most 1000 bytes.
    UiDescription {
        id: "#18292",
        firsts: &[v(1, 8, 0)],
        replayed: true,
        reads: [],
        wording: "a job's UI description is at most 1000 bytes",
    }
    /// #24055 (1.9.0; v1.9.0 nomad/structs/structs.go `Job.Validate`): a
    /// job's version tag description may be at most 1000 bytes.
    VersionTagDescription {
        id: "#24055",
        firsts: &[v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a job's version tag description is at most 1000 bytes",
    }
    /// #23538 (1.8.3, 1.9.0; v1.8.3 nomad/structs/structs.go
    /// `validateNetworks`): a network's CNI arguments may not repeat another
    /// network's key nor hold a `;`.
    CniArgs {
        id: "#23538",
        firsts: &[v(1, 8, 3), v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a network's CNI arguments are validated",
    }
    /// #18343 (1.7.0; v1.7.0 nomad/structs/structs.go `Vault.Validate`): a
    /// task's `vault` block may leave its policies out (workload
    /// identities); before, `Policy list cannot be empty`. `jobValidate`
    /// checks a Vault block's identity (v1.7.0 nomad/job_endpoint_hooks.go:439).
    VaultIdentity {
        id: "#18343",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "a vault block may have no policies",
    }
    /// #25155 (1.10.0; v1.10.0 nomad/structs/structs.go `Vault.Validate`):
    /// a `vault` block may name the `root` policy (tokens are gone);
    /// before, it is refused. The API's job has no `VaultToken` (v1.9.7
    /// api/jobs.go:1182 filled it), the stored Vault block no policies, and
    /// `jobValidate` no longer weighs policies against identities.
    VaultTokensRemoved {
        id: "#25155",
        firsts: &[v(1, 10, 0)],
        replayed: true,
        reads: [],
        wording: "a vault block's root policy is not refused",
    }
    /// #19441 (1.5.12, 1.6.5, 1.7.2; v1.7.2 nomad/structs/structs.go
    /// `Task.Validate`): a CSI plugin's `stage_publish_base_dir` may not be
    /// within its `mount_dir`.
    CsiStageDirOutsideMount {
        id: "#19441",
        firsts: &[v(1, 5, 12), v(1, 6, 5), v(1, 7, 2)],
        replayed: true,
        reads: [],
        wording: "a CSI plugin's stage directory may not be within its mount directory",
    }
    /// #18904 (1.7.0; v1.7.0 nomad/structs/structs.go `Task.Validate`,
    /// actions.go `Action.Validate`): a task's actions, which came with
    /// 1.7.0, need a command and a name, each name once.
    ActionsValidated {
        id: "#18904",
        firsts: &[v(1, 7, 0)],
        replayed: true,
        reads: [],
        wording: "a task's actions are validated",
    }
    /// #24038 (1.9.0; v1.9.0 nomad/structs/structs.go `Task.Validate`,
    /// workload_id.go `WorkloadIdentity.Validate`): a task's default
    /// identity is validated as its extra ones are, and an identity's
    /// `filepath` needs `file = true`.
    DefaultIdentityValidated {
        id: "#24038",
        firsts: &[v(1, 9, 0)],
        replayed: true,
        reads: [],
        wording: "a task's default identity and identity file paths are validated",
    }
    /// #28297 (2.0.5; v2.0.5 nomad/structs/structs.go:2427): negative
    /// `cores` are refused.
    NegativeCores {
        id: "#28297",
        firsts: &[v(2, 0, 5)],
        replayed: true,
        reads: [],
        wording: "negative cores are refused",
    }
}

impl Switch {
    /// The change's row of [`CATALOGUE`].
    pub fn row(self) -> &'static Change {
        &CATALOGUE[self as usize]
    }

    /// The catalogue's name of the change.
    pub fn id(self) -> &'static str {
        self.row().id
    }

    /// The first patch of each series that has the change.
    pub fn firsts(self) -> &'static [Release] {
        self.row().firsts
    }

    /// Whether `release` behaves this way.
    pub fn in_release(self, release: Release) -> bool {
        let row = self.row();
        release.has(row.firsts) && !row.undone_by.is_some_and(|u| release.has(u))
    }

    /// Whether plan-inspect replays this change yet.
    pub fn implemented(self) -> bool {
        self.row().replayed
    }
}

/// The switches of one release, as a set: what [`Switch::in_release`]
/// answers for every row, computed once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Switches([u128; 2]);

impl Switches {
    /// Every change `release` has.
    pub fn of(release: Release) -> Switches {
        let mut bits = [0; 2];
        for s in Switch::ALL.iter().filter(|s| s.in_release(release)) {
            let i = *s as usize;
            bits[i / 128] |= 1 << (i % 128);
        }
        Switches(bits)
    }

    /// Whether the release has `switch`.
    pub fn has(self, switch: Switch) -> bool {
        let i = switch as usize;
        self.0[i / 128] & 1 << (i % 128) != 0
    }
}

const _: () = assert!(CATALOGUE.len() <= 2 * u128::BITS as usize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_1_4_2_and_1_4_3_profiles_differ_by_the_allocstate_reconnect_the_broker_and_a_template_default()
     {
        let differ: Vec<Switch> = Switch::ALL
            .iter()
            .copied()
            .filter(|s| s.in_release(v(1, 4, 2)) != s.in_release(v(1, 4, 3)))
            .collect();
        assert_eq!(
            differ,
            [
                Switch::C1,
                Switch::BrokerCancelsBlocked,
                Switch::TemplateErrMissingKey
            ]
        );
    }

    #[test]
    fn the_seed_has_no_switch_and_head_has_every_one_not_undone() {
        assert!(Switch::ALL.iter().all(|s| !s.in_release(Release::Seed)));
        let head: Vec<Switch> = Switch::ALL
            .iter()
            .copied()
            .filter(|s| !s.in_release(Release::Head))
            .collect();
        assert_eq!(
            head,
            [Switch::D4b, Switch::G0b, Switch::NomadCheckTlsSkipVerify]
        );
    }

    #[test]
    fn undone_changes_hold_only_between_their_two_releases() {
        assert!(!Switch::D4b.in_release(v(1, 7, 7)));
        assert!(Switch::D4b.in_release(v(1, 8, 0)));
        assert!(Switch::D4b.in_release(v(1, 11, 1)));
        assert!(!Switch::D4b.in_release(v(1, 11, 2)));
        assert!(!Switch::D4b.in_release(v(2, 0, 0)));
        assert!(Switch::G0b.in_release(v(1, 11, 0)));
        assert!(!Switch::G0b.in_release(v(1, 11, 1)));
        assert!(!Switch::G0b.in_release(v(2, 0, 0)));
        assert_eq!(Switch::D4b.row().undone_by, Some(Switch::G1.firsts()));
    }

    #[test]
    fn d1_never_reached_the_1_3_series() {
        assert!(!Switch::D1.in_release(v(1, 3, 16)));
        assert!(Switch::D1.in_release(v(1, 5, 10)));
        assert!(!Switch::D1.in_release(v(1, 5, 9)));
    }

    /// The set of a release answers as each row does.
    #[test]
    fn a_release_s_switches_are_its_rows() {
        for release in [
            Release::Seed,
            v(1, 4, 3),
            v(1, 8, 0),
            v(1, 11, 0),
            Release::Head,
        ] {
            let set = Switches::of(release);
            for &s in Switch::ALL {
                assert_eq!(set.has(s), s.in_release(release), "{s:?} {release}");
            }
        }
    }

    /// The IDs of the shared catalogue's profile matrix (its section 3);
    /// warnings print them, so a row goes by exactly one of them.
    const SHARED_IDS: &[&str] = &[
        "A-1", "A-2", "A-3", "A-4", "A-5", "A-6", "B-1", "B-1v", "B-2", "C-1", "C-2", "D-1",
        "D-1b", "D-2", "D-3", "D-4a", "D-4b", "E-1", "E-2", "E-3", "F-1", "F-2", "F-3", "F-4",
        "G-0", "G-0b", "G-0c", "G-1", "H-1", "H-2", "H-3", "H-4",
    ];

    #[test]
    fn every_row_goes_by_the_shared_catalogue_id_or_its_pr() {
        let pr = |s: &str| {
            s.strip_prefix('#')
                .is_some_and(|n| n.parse::<u32>().is_ok())
        };
        for row in CATALOGUE {
            let (id, rest) = row.id.split_once(' ').unwrap_or((row.id, ""));
            assert!(
                (SHARED_IDS.contains(&id) && (rest.is_empty() || pr(rest)))
                    || (pr(id) && rest.is_empty()),
                "{} is not an ID of the shared catalogue",
                row.id
            );
        }
    }

    /// Every row is named once and is listed for operators.
    #[test]
    fn every_row_has_its_own_id_and_is_documented() {
        let docs = include_str!("../../docs/nomad-versions.md");
        for (i, row) in CATALOGUE.iter().enumerate() {
            assert!(
                CATALOGUE[..i].iter().all(|r| r.id != row.id),
                "{} twice",
                row.id
            );
            assert!(
                docs.contains(row.id),
                "{} not in docs/nomad-versions.md",
                row.id
            );
            assert!(
                !row.firsts.is_empty() && !row.wording.is_empty(),
                "{}",
                row.id
            );
        }
    }
}
