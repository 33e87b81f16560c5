complete -c plan-inspect -l now -d 'Evaluate at this RFC 3339 time instead of the snapshot\'s' -r
complete -c plan-inspect -l job -d 'Only this job (by ID)' -r
complete -c plan-inspect -l namespace -d 'Only jobs in this namespace' -r
complete -c plan-inspect -l eval -d 'Replay this evaluation from the snapshot\'s `Evals` (its job, ID and priority)' -r
complete -c plan-inspect -l nomad-version -d 'The Nomad release whose reconciler to replay: 1.3.0 ... 2.0.5, a series such as 1.8 (its latest patch), head, seed (commit 8ac3e642e6), or auto: the newest release the snapshot proves, else seed. Overrides the snapshot\'s NomadVersion key' -r
complete -c plan-inspect -l format -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c plan-inspect -l color -d 'When to color the tables' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plan-inspect -l explain -d 'Explain one allocation (ID or unique ID prefix) or one placement (`job.group[index]`): every step the reconciler took, with its facts' -r
complete -c plan-inspect -s j -l threads -d 'Parse allocations and replay jobs on this many threads: 0 (the default) is one per core, 1 reads and replays on one thread only. The output is the same on any count' -r
complete -c plan-inspect -l completions -d 'Print a shell completion script and exit' -r -f -a "bash\t''
elvish\t''
fish\t''
powershell\t''
zsh\t''"
complete -c plan-inspect -l no-disconnected-clients -d 'Evaluate as servers older than Nomad 1.3 would (no disconnected-client support)'
complete -c plan-inspect -s v -l verbose -d 'Full IDs, exact times, every job and every DesiredChanges column; rows never wrap, so lines may be wider than 100 columns'
complete -c plan-inspect -l detailed-exitcode -d 'Exit 2 when the plan would change anything, 0 when it would not'
complete -c plan-inspect -l man -d 'Print the man page and exit'
complete -c plan-inspect -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plan-inspect -s V -l version -d 'Print version'
