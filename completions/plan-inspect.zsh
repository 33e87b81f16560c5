#compdef plan-inspect

autoload -U is-at-least

_plan-inspect() {
    typeset -A opt_args
    typeset -a _arguments_options
    local ret=1

    if is-at-least 5.2; then
        _arguments_options=(-s -S -C)
    else
        _arguments_options=(-s -C)
    fi

    local context curcontext="$curcontext" state line
    _arguments "${_arguments_options[@]}" : \
'--now=[Evaluate at this time instead of the snapshot'\''s\: RFC 3339 (2022-04-01T03\:12\:00Z), a Unix timestamp in seconds, or an offset from the snapshot'\''s time with its sign (-30m, +1h30m)]:TIME:_default' \
'--job=[Only this job (by ID)]:ID:' \
'--namespace=[Only jobs in this namespace]:NS:' \
'--eval=[Replay this evaluation from the snapshot'\''s \`Evals\` (its job, ID and priority)]:ID:' \
'--nomad-version=[The Nomad release whose reconciler to replay\: 1.3.0 ... 2.0.5, a series such as 1.8 (its latest patch), head, seed (commit 8ac3e642e6), or auto\: the newest release the snapshot proves, else seed. Overrides the snapshot'\''s NomadVersion key]:VERSION:(auto seed head 1.3 1.3.0 1.3.1 1.3.2 1.3.3 1.3.4 1.3.5 1.3.6 1.3.7 1.3.8 1.3.9 1.3.10 1.3.11 1.3.12 1.3.13 1.3.14 1.3.15 1.3.16 1.4 1.4.0 1.4.1 1.4.2 1.4.3 1.4.4 1.4.5 1.4.6 1.4.7 1.4.8 1.4.9 1.4.10 1.4.11 1.4.12 1.4.13 1.4.14 1.5 1.5.0 1.5.1 1.5.2 1.5.3 1.5.4 1.5.5 1.5.6 1.5.7 1.5.8 1.5.9 1.5.10 1.5.11 1.5.12 1.5.13 1.5.14 1.5.15 1.5.16 1.5.17 1.6 1.6.0 1.6.1 1.6.2 1.6.3 1.6.4 1.6.5 1.6.6 1.6.7 1.6.8 1.6.9 1.6.10 1.7 1.7.0 1.7.1 1.7.2 1.7.3 1.7.4 1.7.5 1.7.6 1.7.7 1.8 1.8.0 1.8.1 1.8.2 1.8.3 1.8.4 1.9 1.9.0 1.9.1 1.9.2 1.9.3 1.9.4 1.9.5 1.9.6 1.9.7 1.10 1.10.0 1.10.1 1.10.2 1.10.3 1.10.4 1.10.5 1.11 1.11.0 1.11.1 1.11.2 1.11.3 2.0 2.0.0 2.0.1 2.0.2 2.0.3 2.0.4 2.0.5)' \
'--format=[Output format]:FORMAT:((table\:""
json\:""
html\:"One self-contained HTML page\: the timeline drawn, and the tables"))' \
'--color=[When to color the tables]:WHEN:(auto always never)' \
'--explain=[Explain one allocation (ID or unique ID prefix) or one placement (\`job.group\[index\]\`)\: every step the reconciler took, with its facts, and for a placement every node'\''s verdict (filtered, exhausted, the top scores, the choice). \`job.group\[index\]@NODE\` tells NODE'\''s verdict in full (for a system job\: the placement on NODE). With --what-if or --until\: in the last evaluation of the story that decided it (placed it, or changed the allocation), on the cluster as the story left it then; an allocation the story placed is explained too]:ALLOC:' \
'(--explain --job-file)--explain-node=[Explain one node (ID, name or unique ID prefix)\: its capacity, what runs there, what the plan of the jobs --job and --namespace select adds there and frees, and what is left]:NODE:' \
'(--explain-node --job-file)*--what-if=[What if\: a node, allocation or operator'\''s deployment event, taken through Nomad'\''s servers as the release replayed does, then every evaluation it creates replayed at its time (repeatable, in order)\: node-down\:NODE\[@TIME\], node-drain\:NODE\[\:DEADLINE\], node-ineligible\:NODE, node-up\:NODE\[@TIME\], alloc-fail\:ALLOC\[@TIME\], alloc-healthy\:ALLOC\[,ALLOC...\]\[@TIME\], alloc-unhealthy\:ALLOC\[,ALLOC...\]\[@TIME\], alloc-health\:healthy=ALLOC\[,ALLOC...\]\:unhealthy=ALLOC\[,ALLOC...\]\[@TIME\] (health set by hand, the allocations listed in one request; either list of alloc-health may be left out; a piece between commas that names no allocation is joined with the next until the text is a live allocation'\''s name, so names with commas can be listed, and a list that reads two ways is refused), deployment-promote\:DEPLOYMENT\[\:GROUP\[,GROUP...\]\]\[@TIME\] (the groups named, else every group; a job ID with a colon ends with one to promote every group), deployment-fail\:DEPLOYMENT\[@TIME\], deployment-pause\:DEPLOYMENT\[@TIME\], deployment-resume\:DEPLOYMENT\[@TIME\], deployment-unblock\:DEPLOYMENT\[@TIME\] (taken, and a no-op, in Nomad CE\: multiregion deployments are Enterprise). NODE is an ID, unique ID prefix or name; ALLOC an ID, unique ID prefix or name (job.group\[index\]), of the snapshot or placed by the story; DEPLOYMENT an ID, unique ID prefix or job ID (its latest active deployment), looked up when the event happens; TIME an RFC 3339 time or a duration after the evaluation time (30m); DEADLINE a duration (default 1h)]:EVENT:_default' \
'(--explain-node --job-file)--until=[Follow the story until TIME (RFC 3339, or a duration after the evaluation time)\: each plan applied, then every follow-up, blocked and node-update evaluation due by then, in time order]:TIME:_default' \
'--assume-healthy-after=[With --what-if or --until\: placed allocations become healthy this long after they start (default\: at once); the drainer waits for it]:DURATION:_default' \
'(--job --namespace --eval --explain)--job-file=[Plan a new version of one job against the snapshot, as \`nomad job plan\` does\: the job as Nomad'\''s API JSON (\`nomad job run -output\`, \`nomad job inspect\`), \`-\` for standard input when the snapshot is a file. Shows Nomad'\''s job diff and the plan of the new version]:PATH:_files' \
'-j+[Parse allocations and replay jobs on this many threads\: 0 (the default) is one per core, 1 reads and replays on one thread only. The output is the same on any count]:N:_default' \
'--threads=[Parse allocations and replay jobs on this many threads\: 0 (the default) is one per core, 1 reads and replays on one thread only. The output is the same on any count]:N:_default' \
'--completions=[Print a shell completion script and exit]:SHELL:(bash elvish fish powershell zsh)' \
'--no-disconnected-clients[Evaluate as servers older than Nomad 1.3 would (no disconnected-client support)]' \
'-v[Every allocation (by default a changing job lists only those the plan or their bucket moves, and counts the untouched), every job, every column, full IDs and exact times, and in --explain the facts that did not decide the fate; rows never wrap, so lines may be wider than the terminal]' \
'--verbose[Every allocation (by default a changing job lists only those the plan or their bucket moves, and counts the untouched), every job, every column, full IDs and exact times, and in --explain the facts that did not decide the fate; rows never wrap, so lines may be wider than the terminal]' \
'--detailed-exitcode[Exit 2 when the plan would change anything, 0 when it would not]' \
'--diff-verbose[With --job-file\: the diff in full, as \`nomad job plan -verbose\` (added and deleted groups and tasks expanded, the job'\''s fields shown even when only its groups changed)]' \
'--man[Print the man page and exit]' \
'-h[Print help (see more with '\''--help'\'')]' \
'--help[Print help (see more with '\''--help'\'')]' \
'-V[Print version]' \
'--version[Print version]' \
'::snapshot -- The snapshot file, or `-` for standard input:_files' \
&& ret=0
}

(( $+functions[_plan-inspect_commands] )) ||
_plan-inspect_commands() {
    local commands; commands=()
    _describe -t commands 'plan-inspect commands' commands "$@"
}

if [ "$funcstack[1]" = "_plan-inspect" ]; then
    _plan-inspect "$@"
else
    compdef _plan-inspect plan-inspect
fi
