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
'--now=[Evaluate at this RFC 3339 time instead of the snapshot'\''s]:RFC3339:_default' \
'--job=[Only this job (by ID)]:ID:_default' \
'--namespace=[Only jobs in this namespace]:NS:_default' \
'--eval=[Replay this evaluation from the snapshot'\''s \`Evals\` (its job, ID and priority)]:ID:_default' \
'--nomad-version=[The Nomad release whose reconciler to replay\: 1.3.0 ... 2.0.5, a series such as 1.8 (its latest patch), head, seed (commit 8ac3e642e6), or auto\: the newest release the snapshot proves, else seed. Overrides the snapshot'\''s NomadVersion key]:VERSION:_default' \
'--format=[Output format]:FORMAT:(table json)' \
'--color=[When to color the tables]:WHEN:(auto always never)' \
'--explain=[Explain one allocation (ID or unique ID prefix) or one placement (\`job.group\[index\]\`)\: every step the reconciler took, with its facts]:ALLOC:_default' \
'-j+[Parse allocations and replay jobs on this many threads\: 0 (the default) is one per core, 1 reads and replays on one thread only. The output is the same on any count]:N:_default' \
'--threads=[Parse allocations and replay jobs on this many threads\: 0 (the default) is one per core, 1 reads and replays on one thread only. The output is the same on any count]:N:_default' \
'--completions=[Print a shell completion script and exit]:SHELL:(bash elvish fish powershell zsh)' \
'--no-disconnected-clients[Evaluate as servers older than Nomad 1.3 would (no disconnected-client support)]' \
'-v[Full IDs, exact times, every job and every DesiredChanges column; rows never wrap, so lines may be wider than 100 columns]' \
'--verbose[Full IDs, exact times, every job and every DesiredChanges column; rows never wrap, so lines may be wider than 100 columns]' \
'--detailed-exitcode[Exit 2 when the plan would change anything, 0 when it would not]' \
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
