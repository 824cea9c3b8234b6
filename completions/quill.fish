# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_quill_global_optspecs
    string join \n json text session= state-dir= root= read-only strict lock-timeout= color= h/help V/version
end

function __fish_quill_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_quill_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_quill_using_subcommand
    set -l cmd (__fish_quill_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c quill -n "__fish_quill_needs_command" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_needs_command" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_needs_command" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_needs_command" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_needs_command" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_needs_command" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_needs_command" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_needs_command" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_needs_command" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c quill -n "__fish_quill_needs_command" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_needs_command" -f -a "read" -d 'Show a page of a file with line numbers and record a baseline'
complete -c quill -n "__fish_quill_needs_command" -f -a "write" -d 'Replace or create a whole file (needs a read baseline for an existing file)'
complete -c quill -n "__fish_quill_needs_command" -f -a "edit" -d 'Replace an exact, unique passage of a file'
complete -c quill -n "__fish_quill_needs_command" -f -a "glob" -d 'Find files by glob pattern, newest first'
complete -c quill -n "__fish_quill_needs_command" -f -a "grep" -d 'Search file contents with a regex, like ripgrep, sorted and paged'
complete -c quill -n "__fish_quill_needs_command" -f -a "transfer" -d 'Copy or move one file without ever losing or half-publishing it'
complete -c quill -n "__fish_quill_needs_command" -f -a "undo" -d 'Restore a file to what it was before quill\'s last change in this session'
complete -c quill -n "__fish_quill_needs_command" -f -a "state" -d 'Show or change the session\'s read baselines'
complete -c quill -n "__fish_quill_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c quill -n "__fish_quill_needs_command" -f -a "man" -d 'Print a roff man page'
complete -c quill -n "__fish_quill_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c quill -n "__fish_quill_using_subcommand read" -l offset -d 'First line to show (1-based)' -r
complete -c quill -n "__fish_quill_using_subcommand read" -l limit -d 'Most lines to show' -r
complete -c quill -n "__fish_quill_using_subcommand read" -l max-bytes -d 'Byte budget of the page; the page ends before the line that would pass it' -r
complete -c quill -n "__fish_quill_using_subcommand read" -l max-line-chars -d 'Cut longer lines in the display (0 = no cap)' -r
complete -c quill -n "__fish_quill_using_subcommand read" -l pages -d 'PDF pages to show, e.g. 3 or 2-5 [default: all, up to 20]' -r
complete -c quill -n "__fish_quill_using_subcommand read" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand read" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand read" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand read" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand read" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand read" -l inline-image -d 'Include an image\'s bytes as base64 `data` (up to 5 MiB)'
complete -c quill -n "__fish_quill_using_subcommand read" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand read" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand read" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand read" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand read" -s h -l help -d 'Print help'
complete -c quill -n "__fish_quill_using_subcommand read" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand write" -l content -d 'The new content' -r
complete -c quill -n "__fish_quill_using_subcommand write" -l from -d 'Take the new content from this file (default: stdin)' -r -F
complete -c quill -n "__fish_quill_using_subcommand write" -l expect-sha256 -d 'Replace only this version (stands in for a read baseline)' -r
complete -c quill -n "__fish_quill_using_subcommand write" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand write" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand write" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand write" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand write" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand write" -l create-only -d 'Refuse if the file exists (create_conflict)'
complete -c quill -n "__fish_quill_using_subcommand write" -l no-parents -d 'Do not create missing parent directories'
complete -c quill -n "__fish_quill_using_subcommand write" -l dry-run -d 'Plan and show the diff; write nothing'
complete -c quill -n "__fish_quill_using_subcommand write" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand write" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand write" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand write" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand write" -s h -l help -d 'Print help'
complete -c quill -n "__fish_quill_using_subcommand write" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand edit" -l old -d 'The exact text to replace' -r
complete -c quill -n "__fish_quill_using_subcommand edit" -l new -d 'The replacement text' -r
complete -c quill -n "__fish_quill_using_subcommand edit" -l old-file -d 'Read `old` from a file' -r -F
complete -c quill -n "__fish_quill_using_subcommand edit" -l new-file -d 'Read `new` from a file' -r -F
complete -c quill -n "__fish_quill_using_subcommand edit" -l edits -d 'A JSON array of edits applied in order, all or nothing (\'-\' = stdin)' -r -F
complete -c quill -n "__fish_quill_using_subcommand edit" -l expect-count -d 'Fail unless exactly N occurrences are found' -r
complete -c quill -n "__fish_quill_using_subcommand edit" -l expect-sha256 -d 'Edit only this version (stands in for a read baseline)' -r
complete -c quill -n "__fish_quill_using_subcommand edit" -l max-file-bytes -d 'Refuse files larger than this' -r
complete -c quill -n "__fish_quill_using_subcommand edit" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand edit" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand edit" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand edit" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand edit" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand edit" -l replace-all -d 'Replace every non-overlapping occurrence'
complete -c quill -n "__fish_quill_using_subcommand edit" -l fuzzy -d 'Apply a unique match that differs only in whitespace or look-alike characters'
complete -c quill -n "__fish_quill_using_subcommand edit" -l dry-run -d 'Plan and show the diff; write nothing'
complete -c quill -n "__fish_quill_using_subcommand edit" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand edit" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand edit" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand edit" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand edit" -s h -l help -d 'Print help'
complete -c quill -n "__fish_quill_using_subcommand edit" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand glob" -l limit -d 'Most entries to return (0 = all)' -r
complete -c quill -n "__fish_quill_using_subcommand glob" -l offset -d 'Skip the first N entries' -r
complete -c quill -n "__fish_quill_using_subcommand glob" -l sort -d 'Order of the entries' -r -f -a "mtime\t'Modification time, newest first; ties by path'
path\t'Path, in byte order'
none\t'Walk order (fastest)'"
complete -c quill -n "__fish_quill_using_subcommand glob" -l max-walk -d 'Stop the walk after this many entries' -r
complete -c quill -n "__fish_quill_using_subcommand glob" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand glob" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand glob" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand glob" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand glob" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand glob" -s i -l ignore-case -d 'Match case-insensitively'
complete -c quill -n "__fish_quill_using_subcommand glob" -l hidden -d 'Include hidden files and directories'
complete -c quill -n "__fish_quill_using_subcommand glob" -l no-ignore -d 'Do not honor .gitignore, .ignore and .git/info/exclude'
complete -c quill -n "__fish_quill_using_subcommand glob" -s L -l follow -d 'Follow symbolic links'
complete -c quill -n "__fish_quill_using_subcommand glob" -s 0 -l null -d 'Separate paths with NUL instead of newline (text output)'
complete -c quill -n "__fish_quill_using_subcommand glob" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand glob" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand glob" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand glob" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand glob" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c quill -n "__fish_quill_using_subcommand glob" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand grep" -s e -l regexp -d 'A pattern (repeatable; lines matching any are found); then every positional is a PATH' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -s m -l max-count -d 'Stop searching a file after NUM matching lines' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -s g -l glob -d 'Include or (with !) exclude files by glob; repeatable' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -s t -l type -d 'Only search files of this type (see --type-list); repeatable' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -s T -l type-not -d 'Skip files of this type; repeatable' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l mode -d 'What to report' -r -f -a "content\t'Matching lines'
files\t'Paths of matching files'
count\t'Matching lines per file'"
complete -c quill -n "__fish_quill_using_subcommand grep" -s A -l after-context -d 'Lines of context after each match' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -s B -l before-context -d 'Lines of context before each match' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -s C -l context -d 'Lines of context before and after each match' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l max-columns -d 'Cut lines longer than this with a marker (0 = no cap)' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l limit -d 'Most entries to return (0 = all)' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l offset -d 'Skip the first N entries' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l max-walk -d 'Stop the walk after this many entries' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l include -d 'GNU grep\'s --include: use --glob GLOB' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l exclude -d 'GNU grep\'s --exclude: use --glob \'!GLOB\'' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l exclude-dir -d 'GNU grep\'s --exclude-dir: use --glob \'!DIR/\'' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand grep" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand grep" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand grep" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand grep" -s F -l fixed-strings -d 'Treat the pattern as a literal string'
complete -c quill -n "__fish_quill_using_subcommand grep" -s i -l ignore-case -d 'Match case-insensitively'
complete -c quill -n "__fish_quill_using_subcommand grep" -s S -l smart-case -d 'Case-insensitive unless the pattern has an uppercase letter'
complete -c quill -n "__fish_quill_using_subcommand grep" -s w -l word-regexp -d 'Match whole words only'
complete -c quill -n "__fish_quill_using_subcommand grep" -s x -l line-regexp -d 'Match whole lines only'
complete -c quill -n "__fish_quill_using_subcommand grep" -s v -l invert-match -d 'Find the lines that do not match'
complete -c quill -n "__fish_quill_using_subcommand grep" -s o -l only-matching -d 'Show only the matched part of each line, one entry per match'
complete -c quill -n "__fish_quill_using_subcommand grep" -s U -l multiline -d 'Let matches span lines'
complete -c quill -n "__fish_quill_using_subcommand grep" -l type-list -d 'List the known file types and exit'
complete -c quill -n "__fish_quill_using_subcommand grep" -l hidden -d 'Include hidden files and directories'
complete -c quill -n "__fish_quill_using_subcommand grep" -l no-ignore -d 'Do not honor .gitignore, .ignore and .git/info/exclude'
complete -c quill -n "__fish_quill_using_subcommand grep" -s L -l follow -d 'Follow symbolic links'
complete -c quill -n "__fish_quill_using_subcommand grep" -s l -l files-with-matches -d 'Only the paths of files with a match (= --mode files)'
complete -c quill -n "__fish_quill_using_subcommand grep" -s c -l count -d 'Matching lines per file (= --mode count; with -o, matches)'
complete -c quill -n "__fish_quill_using_subcommand grep" -s H -l with-filename -d 'Show the path of every match (the default)'
complete -c quill -n "__fish_quill_using_subcommand grep" -l no-filename -d 'Never show paths in content and count output (text output)'
complete -c quill -n "__fish_quill_using_subcommand grep" -s n -l line-number -d 'Show line numbers (the default)'
complete -c quill -n "__fish_quill_using_subcommand grep" -s N -l no-line-number -d 'Hide line numbers in text output'
complete -c quill -n "__fish_quill_using_subcommand grep" -l heading -d 'Show the path above each file\'s matches (default on a terminal)'
complete -c quill -n "__fish_quill_using_subcommand grep" -l no-heading -d 'Prefix every line with its path'
complete -c quill -n "__fish_quill_using_subcommand grep" -s 0 -l null -d 'Follow each path with NUL instead of `:` or a newline (text output), for xargs -0'
complete -c quill -n "__fish_quill_using_subcommand grep" -s r -l recursive -d 'GNU grep\'s -r: not needed, directories are searched recursively'
complete -c quill -n "__fish_quill_using_subcommand grep" -s E -l extended-regexp -d 'GNU grep\'s -E: not needed, the pattern is a Rust regex'
complete -c quill -n "__fish_quill_using_subcommand grep" -s P -l perl-regexp -d 'GNU grep\'s -P: not supported, the pattern is a Rust regex'
complete -c quill -n "__fish_quill_using_subcommand grep" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand grep" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand grep" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand grep" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand grep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c quill -n "__fish_quill_using_subcommand grep" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand transfer" -l replace-sha256 -d 'Replace an existing destination only if it has this SHA-256' -r
complete -c quill -n "__fish_quill_using_subcommand transfer" -l expect-sha256 -d 'The source must have this SHA-256 (checked on what was read)' -r
complete -c quill -n "__fish_quill_using_subcommand transfer" -l progress -d 'Progress on stderr' -r -f -a "auto\t'A bar when stderr is a terminal and the file is large'
json\t'JSON lines on stderr'
none\t'Nothing'"
complete -c quill -n "__fish_quill_using_subcommand transfer" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand transfer" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand transfer" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand transfer" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand transfer" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand transfer" -l move -d 'Remove the source once the destination is committed'
complete -c quill -n "__fish_quill_using_subcommand transfer" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand transfer" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand transfer" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand transfer" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand transfer" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c quill -n "__fish_quill_using_subcommand transfer" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand undo" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand undo" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand undo" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand undo" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand undo" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand undo" -l dry-run -d 'Show the diff; write nothing'
complete -c quill -n "__fish_quill_using_subcommand undo" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand undo" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand undo" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand undo" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand undo" -s h -l help -d 'Print help'
complete -c quill -n "__fish_quill_using_subcommand undo" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -l all-sessions -d 'List every session instead of this one\'s baselines'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -s h -l help -d 'Print help'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -f -a "show" -d 'List the session\'s baselines'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -f -a "forget" -d 'Forget the baseline of one file'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -f -a "clear" -d 'Forget every baseline of the session'
complete -c quill -n "__fish_quill_using_subcommand state; and not __fish_seen_subcommand_from show forget clear help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -s h -l help -d 'Print help'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from forget" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -s h -l help -d 'Print help'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from clear" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from help" -f -a "show" -d 'List the session\'s baselines'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from help" -f -a "forget" -d 'Forget the baseline of one file'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from help" -f -a "clear" -d 'Forget every baseline of the session'
complete -c quill -n "__fish_quill_using_subcommand state; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c quill -n "__fish_quill_using_subcommand completions" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand completions" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand completions" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand completions" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand completions" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand completions" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand completions" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand completions" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand completions" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand completions" -s h -l help -d 'Print help'
complete -c quill -n "__fish_quill_using_subcommand completions" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand man" -l session -d 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]' -r
complete -c quill -n "__fish_quill_using_subcommand man" -l state-dir -d 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]' -r -F
complete -c quill -n "__fish_quill_using_subcommand man" -l root -d 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)' -r -F
complete -c quill -n "__fish_quill_using_subcommand man" -l lock-timeout -d 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]' -r
complete -c quill -n "__fish_quill_using_subcommand man" -l color -d 'When to color text output' -r -f -a "auto\t''
always\t''
never\t''"
complete -c quill -n "__fish_quill_using_subcommand man" -l json -d 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
complete -c quill -n "__fish_quill_using_subcommand man" -l text -d 'Print text for people, even when QUILL_FORMAT=json'
complete -c quill -n "__fish_quill_using_subcommand man" -l read-only -d 'Refuse every change (read_only)'
complete -c quill -n "__fish_quill_using_subcommand man" -l strict -d 'Changes need a complete read (every line shown, none cut)'
complete -c quill -n "__fish_quill_using_subcommand man" -s h -l help -d 'Print help'
complete -c quill -n "__fish_quill_using_subcommand man" -s V -l version -d 'Print version'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "read" -d 'Show a page of a file with line numbers and record a baseline'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "write" -d 'Replace or create a whole file (needs a read baseline for an existing file)'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "edit" -d 'Replace an exact, unique passage of a file'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "glob" -d 'Find files by glob pattern, newest first'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "grep" -d 'Search file contents with a regex, like ripgrep, sorted and paged'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "transfer" -d 'Copy or move one file without ever losing or half-publishing it'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "undo" -d 'Restore a file to what it was before quill\'s last change in this session'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "state" -d 'Show or change the session\'s read baselines'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "man" -d 'Print a roff man page'
complete -c quill -n "__fish_quill_using_subcommand help; and not __fish_seen_subcommand_from read write edit glob grep transfer undo state completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c quill -n "__fish_quill_using_subcommand help; and __fish_seen_subcommand_from state" -f -a "show" -d 'List the session\'s baselines'
complete -c quill -n "__fish_quill_using_subcommand help; and __fish_seen_subcommand_from state" -f -a "forget" -d 'Forget the baseline of one file'
complete -c quill -n "__fish_quill_using_subcommand help; and __fish_seen_subcommand_from state" -f -a "clear" -d 'Forget every baseline of the session'
