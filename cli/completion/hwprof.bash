# SPDX-License-Identifier: MIT
# bash completion for hwprof: its commands, each command's options, event
# names (hwprof list --names), the values of options that take a word from
# a fixed list, files where a file goes, and the command after '--'.
# The option lists are each cli/cmd-*.c's option table; tests/cli/
# test_completion.py compares them, so that a new option shows up here.

# Each command's options; those that take an argument, in _hwprof_args_*.
_hwprof_opts_stat='-e --event -M --metric --topdown --td-level --all-user --all-kernel -i --no-inherit
	-p --pid -a --all-cpus -C --cpu --pin -r --repeat -I --interval-print
	-x --field-separator --json --format -o --output --no-big-num --no-merge --warmup --sweep
	--histogram --regions -A --no-aggr --per-core --per-die --per-socket --per-node
	--per-thread -G --cgroup --skip-first --strict --keep-going --score --score-from
	--quiet --explain --per-run --variant --order --seed --save --alpha -h --help'
_hwprof_args_stat='-e --event -M --metric --td-level -p --pid -C --cpu --pin -r --repeat
	-I --interval-print -x --field-separator --format -o --output --warmup --sweep
	--histogram -G --cgroup --skip-first --score --score-from --variant --order --seed
	--save --alpha'
_hwprof_opts_compare='-a --alpha -t --test --no-correction --json --fail-on
	-x --field-separator --csv -o --output --no-big-num -h --help'
_hwprof_args_compare='-a --alpha -t --test --fail-on -x --field-separator -o --output'
_hwprof_opts_record='-e --event -F --freq -c --count -g --call-graph -m --mmap-pages
	-i --no-inherit --off-cpu --all-cgroups -p --pid -a --all-cpus -C --cpu -o --output
	--rotate --output-dir --keep --format -h --help'
_hwprof_args_record='-e --event -F --freq -c --count --call-graph -m --mmap-pages
	-p --pid -C --cpu -o --output --rotate --output-dir --keep --format'
_hwprof_opts_report='-i --input -s --sort -n --top -f --format -x --field-separator
	--annotate -e --event --kallsyms --vmlinux --no-kallsyms-cache --no-debug-cache
	--no-demangle --inline --no-inline --comms --comm --pid --pids --tid --tids --dsos
	--dso -C --cpu --threads -o --output -h --help'
_hwprof_args_report='-i --input -s --sort -n --top -f --format -x --field-separator
	--annotate -e --event --kallsyms --vmlinux --comms --comm --pid --pids --tid --tids
	--dsos --dso -C --cpu --threads -o --output'
_hwprof_opts_diff='-s --sort -n --top -f --format -x --field-separator -e --event
	-a --alpha --no-correction -m --mode --map-module --kallsyms --no-kallsyms-cache
	--no-debug-cache -o --output --no-big-num -h --help'
_hwprof_args_diff='-s --sort -n --top -f --format -x --field-separator -e --event
	-a --alpha -m --mode --map-module --kallsyms -o --output'
_hwprof_opts_list='--no-probe --names --topology --metrics -h --help'
_hwprof_args_list=''
_hwprof_opts_doctor='--json -h --help'
_hwprof_args_doctor=''
_hwprof_opts_serve='-e --event --listen -C --cpu -G --cgroup --cgroup-root -h --help'
_hwprof_args_serve='-e --event --listen -C --cpu -G --cgroup --cgroup-root'
_hwprof_commands='stat compare record report diff list doctor serve help'

# The words a value of OPT of CMD is completed from; "files" and "events"
# are completed as such; nothing: any word (a number, a name).
_hwprof_values()
{
	case "$1:$2" in
	*:-e | *:--event) echo events ;;
	*:-o | *:--output | report:-i | report:--input | *:--kallsyms | report:--vmlinux | \
	stat:--save | stat:--score-from)
		echo files ;;
	stat:--format) echo text csv json openmetrics prometheus ;;
	report:-f | report:--format) echo text csv json folded speedscope pprof html ;;
	diff:-f | diff:--format) echo text csv json ;;
	report:-s | report:--sort) echo sym rip line dso cpu comm pid ;;
	diff:-s | diff:--sort) echo sym rip line dso ;;
	diff:-m | diff:--mode) echo share count rate ;;
	compare:-t | compare:--test) echo welch mann-whitney ;;
	stat:--order) echo abba random sequential ;;
	record:--call-graph) echo fp dwarf ;;
	esac
}

# COMPREPLY: the words of @1 (one a line) that complete the last item of
# the comma-separated list @2 (-e's events, --sort's keys).
_hwprof_list()
{
	local prefix="" item="$2"
	if [[ $item == *,* ]]; then
		prefix=${item%,*},
		item=${item##*,}
	fi
	local IFS=$'\n'
	COMPREPLY=($(compgen -P "$prefix" -W "$1" -- "$item"))
}

_hwprof_events()
{
	_hwprof_list "$("${COMP_WORDS[0]}" list --names --no-probe 2>/dev/null)" "$1"
	# readline replaces the word after the last ':', not the whole name
	if declare -F __ltrim_colon_completions >/dev/null; then
		__ltrim_colon_completions "$1"
	fi
}

_hwprof_files()
{
	if declare -F _filedir >/dev/null; then
		_filedir
	else
		local IFS=$'\n'
		COMPREPLY=($(compgen -f -- "$1"))
	fi
}

# The index in COMP_WORDS of the '--' after the command at @1, or nothing.
_hwprof_dashes()
{
	local j
	for ((j = $1 + 1; j < COMP_CWORD; j++)); do
		if [[ ${COMP_WORDS[j]} == -- ]]; then
			echo "$j"
			return
		fi
	done
}

_hwprof()
{
	local cur prev words cword cmd="" i
	COMPREPLY=()
	# bash-completion keeps event names whole across ':' (sched:sched_switch)
	if declare -F _get_comp_words_by_ref >/dev/null; then
		_get_comp_words_by_ref -n : cur prev words cword
	else
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
		cur=${words[cword]}
		prev=${words[cword - 1]}
	fi
	# --opt=VALUE: bash splits the word at '='.
	if [[ $cur == = ]]; then
		cur=""
	fi
	if [[ $prev == = ]] && ((cword > 1)); then
		prev=${words[cword - 2]}
	fi
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-*) ;;
		*) cmd=${words[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$_hwprof_commands --help --version" -- "$cur"))
		return
	fi
	if [[ $cmd == help ]]; then
		((cword == i + 1)) &&
			COMPREPLY=($(compgen -W "${_hwprof_commands% help}" -- "$cur"))
		return
	fi
	local opts_var=_hwprof_opts_${cmd} args_var=_hwprof_args_${cmd}
	[[ -n ${!opts_var+set} ]] || return
	# After '--': the command to run, and its own arguments.
	local j
	j=$(_hwprof_dashes "$i")
	if [[ -n $j ]]; then
		if declare -F _command_offset >/dev/null; then
			_command_offset $((j + 1))
		elif ((COMP_CWORD == j + 1)); then
			COMPREPLY=($(compgen -c -- "$cur"))
		else
			_hwprof_files "$cur"
		fi
		return
	fi
	if [[ " ${!args_var} " == *" $prev "* ]]; then
		local values
		values=$(_hwprof_values "$cmd" "$prev")
		case $values in
		events) _hwprof_events "$cur" ;;
		files) _hwprof_files "$cur" ;;
		?*) _hwprof_list "${values// /$'\n'}" "$cur" ;;
		esac
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "${!opts_var}" -- "$cur"))
		return
	fi
	# compare and diff read files; record and stat run a command.
	case $cmd in
	compare | diff) _hwprof_files "$cur" ;;
	record | stat) COMPREPLY=($(compgen -c -- "$cur")) ;;
	esac
}

complete -F _hwprof hwprof
