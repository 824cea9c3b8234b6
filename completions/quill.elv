
use builtin;
use str;

set edit:completion:arg-completer[quill] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'quill'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'quill'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand read 'Show a page of a file with line numbers and record a baseline'
            cand write 'Replace or create a whole file (needs a read baseline for an existing file)'
            cand edit 'Replace an exact, unique passage of a file'
            cand glob 'Find files by glob pattern, newest first'
            cand grep 'Search file contents with a regex, like ripgrep, sorted and paged'
            cand transfer 'Copy or move one file without ever losing or half-publishing it'
            cand apply 'Apply a unified diff or a Codex patch to many files: all of them change, or none'
            cand undo 'Restore a file to what it was before quill''s last change in this session'
            cand rm 'Delete a file the session has read and that is unchanged since; undoable'
            cand state 'Show or change the session''s read baselines'
            cand tools 'Print function-calling tool definitions for a harness (OpenAI, Anthropic, or quill''s)'
            cand call 'Run one tool call given as JSON on stdin, exactly as the command line would'
            cand mcp 'Serve the tools over the Model Context Protocol on stdin and stdout, for agents that load tools from MCP servers'
            cand guide 'Print a compact guide to quill for a shell-only agent''s system prompt'
            cand completions 'Print a shell completion script'
            cand man 'Print a roff man page'
            cand schema 'Print the JSON Schema (draft 2020-12) of an op''s JSON answer, or of the error object'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'quill;read'= {
            cand --offset 'First line to show, 1-based: a line number (the previous page''s nextOffset); for a directory, the first entry'
            cand --limit 'Most lines to show'
            cand --max-bytes 'Byte budget of the page; the page ends before the line that would pass it'
            cand --max-line-chars 'Cut longer lines in the display (0 = no cap)'
            cand --pages 'PDF pages to show, e.g. 3 or 2-5 [default: all, up to 20]'
            cand --encoding 'Decode text in this encoding (windows-1251, latin1, shift_jis, utf-8, …) instead of detecting it'
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --inline-image 'Include an image''s bytes as base64 `data` (up to 5 MiB)'
            cand --hidden 'A directory: list hidden entries too'
            cand --no-ignore 'A directory: list what .gitignore, .ignore and .git/info/exclude leave out'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;write'= {
            cand --content 'The new content'
            cand --from 'Take the new content from this file (''-'' = stdin)'
            cand --expect-sha256 'Replace only this version (stands in for a read baseline)'
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --stdin 'Take the new content from stdin (never read unless asked)'
            cand --allow-empty 'Allow replacing a non-empty file with empty content'
            cand --allow-placeholder 'Allow an omission placeholder (`// ... rest of the code ...`) the file does not have'
            cand --create-only 'Refuse if the file exists (create_conflict)'
            cand --no-parents 'Do not create missing parent directories'
            cand --parents 'Create missing parent directories: the default, accepted as `mkdir -p` and `cp --parents` users type it'
            cand --dry-run 'Plan and show the diff; write nothing'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;edit'= {
            cand --old 'The exact text to replace'
            cand --new 'The replacement text'
            cand --old-file 'Read `old` from a file'
            cand --new-file 'Read `new` from a file'
            cand --edits 'A JSON array of edits applied in order, all or nothing (''-'' = stdin)'
            cand --insert-after 'Insert `new` as whole lines after line N of the version read (0 = at the top, the line count = at the end)'
            cand --lines 'Replace lines A to B of the version read (1-based, inclusive: `A-B` or `A,B`) with `new`; an empty `new` deletes them'
            cand --expect-count 'Fail unless exactly N occurrences are found'
            cand --expect-sha256 'Edit only this version (stands in for a read baseline)'
            cand --max-file-bytes 'Refuse files larger than this'
            cand --encoding 'Edit the file in this encoding (windows-1251, latin1, shift_jis, utf-8, …) instead of the detected one'
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --replace-all 'Replace every non-overlapping occurrence'
            cand --fuzzy 'Apply a unique match that differs only in whitespace, look-alike or invisible characters, read''s line numbers or written-out escapes; the file''s characters stay'
            cand --again 'Apply the edit even though the session''s last change of the file was this same edit'
            cand --allow-placeholder 'Allow an omission placeholder (`// ... existing code ...`) in `new` that `old` and the file do not have'
            cand --dry-run 'Plan and show the diff; write nothing'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;glob'= {
            cand --limit 'Most entries to return, 0 = all [default: 100, or $QUILL_LIMIT]'
            cand --offset 'Entries to skip, 0-based: 0 starts at the first (the previous page''s nextOffset)'
            cand --sort 'Order of the entries'
            cand --max-walk 'Stop the walk after this many entries'
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand -i 'Match case-insensitively'
            cand --ignore-case 'Match case-insensitively'
            cand --hidden 'Include hidden files and directories'
            cand --no-ignore 'Do not honor .gitignore, .ignore and .git/info/exclude'
            cand -L 'Follow symbolic links'
            cand --follow 'Follow symbolic links'
            cand -0 'Separate paths with NUL instead of newline (text output)'
            cand --null 'Separate paths with NUL instead of newline (text output)'
            cand --all 'Every entry: the same as --limit 0 (for scripts; also QUILL_LIMIT=0)'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;grep'= {
            cand -e 'A pattern (repeatable; lines matching any are found); then every positional is a PATH'
            cand --regexp 'A pattern (repeatable; lines matching any are found); then every positional is a PATH'
            cand -m 'Stop searching a file after NUM matching lines'
            cand --max-count 'Stop searching a file after NUM matching lines'
            cand -g 'Include or (with !) exclude files by glob; repeatable'
            cand --glob 'Include or (with !) exclude files by glob; repeatable'
            cand -t 'Only search files of this type (see --type-list); repeatable'
            cand --type 'Only search files of this type (see --type-list); repeatable'
            cand -T 'Skip files of this type; repeatable'
            cand --type-not 'Skip files of this type; repeatable'
            cand --mode 'What to report'
            cand -A 'Lines of context after each match'
            cand --after-context 'Lines of context after each match'
            cand -B 'Lines of context before each match'
            cand --before-context 'Lines of context before each match'
            cand -C 'Lines of context before and after each match'
            cand --context 'Lines of context before and after each match'
            cand --max-columns 'Cut lines longer than this with a marker (0 = no cap)'
            cand --limit 'Most entries to return, 0 = all [default: 200, or $QUILL_LIMIT]'
            cand --offset 'Entries to skip, 0-based: 0 starts at the first (the previous page''s nextOffset)'
            cand --max-walk 'Stop the walk after this many entries'
            cand --include 'GNU grep''s --include: use --glob GLOB'
            cand --exclude 'GNU grep''s --exclude: use --glob ''!GLOB'''
            cand --exclude-dir 'GNU grep''s --exclude-dir: use --glob ''!DIR/'''
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand -F 'Treat the pattern as a literal string'
            cand --fixed-strings 'Treat the pattern as a literal string'
            cand -i 'Match case-insensitively'
            cand --ignore-case 'Match case-insensitively'
            cand -S 'Case-insensitive unless the pattern has an uppercase letter'
            cand --smart-case 'Case-insensitive unless the pattern has an uppercase letter'
            cand -w 'Match whole words only'
            cand --word-regexp 'Match whole words only'
            cand -x 'Match whole lines only'
            cand --line-regexp 'Match whole lines only'
            cand -v 'Find the lines that do not match'
            cand --invert-match 'Find the lines that do not match'
            cand -o 'Show only the matched part of each line, one entry per match'
            cand --only-matching 'Show only the matched part of each line, one entry per match'
            cand -U 'Let matches span lines'
            cand --multiline 'Let matches span lines'
            cand --type-list 'List the known file types and exit'
            cand --hidden 'Include hidden files and directories'
            cand --no-ignore 'Do not honor .gitignore, .ignore and .git/info/exclude'
            cand -L 'Follow symbolic links'
            cand --follow 'Follow symbolic links'
            cand -l 'Only the paths of files with a match (= --mode files)'
            cand --files-with-matches 'Only the paths of files with a match (= --mode files)'
            cand -c 'Matching lines per file (= --mode count; with -o, matches)'
            cand --count 'Matching lines per file (= --mode count; with -o, matches)'
            cand -H 'Show the path of every match (the default)'
            cand --with-filename 'Show the path of every match (the default)'
            cand --no-filename 'Never show paths in content and count output (text output)'
            cand -n 'Show line numbers (the default)'
            cand --line-number 'Show line numbers (the default)'
            cand -N 'Hide line numbers in text output'
            cand --no-line-number 'Hide line numbers in text output'
            cand --heading 'Show the path above each file''s matches (default on a terminal)'
            cand --no-heading 'Prefix every line with its path'
            cand -0 'Follow each path with NUL instead of `:` or a newline (text output), for xargs -0'
            cand --null 'Follow each path with NUL instead of `:` or a newline (text output), for xargs -0'
            cand --all 'Every entry: the same as --limit 0 (for scripts; also QUILL_LIMIT=0)'
            cand -r 'GNU grep''s -r/-R: accepted; directories are always searched recursively'
            cand --recursive 'GNU grep''s -r/-R: accepted; directories are always searched recursively'
            cand -E 'GNU grep''s -E: accepted; the pattern is an extended (Rust) regex already'
            cand --extended-regexp 'GNU grep''s -E: accepted; the pattern is an extended (Rust) regex already'
            cand -P 'GNU grep''s -P: not supported, the pattern is a Rust regex'
            cand --perl-regexp 'GNU grep''s -P: not supported, the pattern is a Rust regex'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;transfer'= {
            cand --replace-sha256 'Replace an existing destination only if it has this SHA-256'
            cand --expect-sha256 'The source must have this SHA-256 (checked on what was read)'
            cand --progress 'Progress on stderr'
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --move 'Remove the source once the destination is committed'
            cand --no-parents 'Do not create missing parent directories of the destination'
            cand --parents 'Create missing parent directories: the default, accepted as `mkdir -p` and `cp --parents` users type it'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;apply'= {
            cand -p 'Remove N leading components from the unified diff''s paths (git''s a/ and b/ are one)'
            cand --strip 'Remove N leading components from the unified diff''s paths (git''s a/ and b/ are one)'
            cand --expect-sha256 'PATH=HEX: change this file only at this version (stands in for a read baseline)'
            cand --max-file-bytes 'Refuse files (and the patch) larger than this'
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --fuzzy 'Locate hunks that differ only in whitespace or look-alike characters (unique matches)'
            cand --allow-placeholder 'Allow an omission placeholder (`// ... existing code ...`) in added lines that the file does not have'
            cand --unidiff-zero 'Place a unified hunk without context lines (`git diff -U0`) by its line number alone'
            cand --check 'Only check that the patch applies (as `git apply --check`); write nothing, show no diff'
            cand --dry-run 'Plan and show the combined diff; write nothing'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;undo'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --dry-run 'Show the diff; write nothing'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;rm'= {
            cand --expect-sha256 'Delete only this version (stands in for a read baseline)'
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --dry-run 'Show the diff; remove nothing'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;state'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --all-sessions 'List every session instead of this one''s baselines'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand show 'List the session''s baselines'
            cand forget 'Forget the baseline of one file'
            cand clear 'Forget every baseline of the session'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'quill;state;show'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;state;forget'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;state;clear'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;state;help'= {
            cand show 'List the session''s baselines'
            cand forget 'Forget the baseline of one file'
            cand clear 'Forget every baseline of the session'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'quill;state;help;show'= {
        }
        &'quill;state;help;forget'= {
        }
        &'quill;state;help;clear'= {
        }
        &'quill;state;help;help'= {
        }
        &'quill;tools'= {
            cand --format 'The shape of the definitions'
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;call'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;mcp'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;guide'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;completions'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;man'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;schema'= {
            cand --session 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]'
            cand --state-dir 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]'
            cand --root 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)'
            cand --lock-timeout 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]'
            cand --color 'When to color text output'
            cand --json 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)'
            cand --text 'Print text for people, even when QUILL_FORMAT=json'
            cand --read-only 'Refuse every change (read_only)'
            cand --strict 'Changes need a complete read (every line shown, none cut)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'quill;help'= {
            cand read 'Show a page of a file with line numbers and record a baseline'
            cand write 'Replace or create a whole file (needs a read baseline for an existing file)'
            cand edit 'Replace an exact, unique passage of a file'
            cand glob 'Find files by glob pattern, newest first'
            cand grep 'Search file contents with a regex, like ripgrep, sorted and paged'
            cand transfer 'Copy or move one file without ever losing or half-publishing it'
            cand apply 'Apply a unified diff or a Codex patch to many files: all of them change, or none'
            cand undo 'Restore a file to what it was before quill''s last change in this session'
            cand rm 'Delete a file the session has read and that is unchanged since; undoable'
            cand state 'Show or change the session''s read baselines'
            cand tools 'Print function-calling tool definitions for a harness (OpenAI, Anthropic, or quill''s)'
            cand call 'Run one tool call given as JSON on stdin, exactly as the command line would'
            cand mcp 'Serve the tools over the Model Context Protocol on stdin and stdout, for agents that load tools from MCP servers'
            cand guide 'Print a compact guide to quill for a shell-only agent''s system prompt'
            cand completions 'Print a shell completion script'
            cand man 'Print a roff man page'
            cand schema 'Print the JSON Schema (draft 2020-12) of an op''s JSON answer, or of the error object'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'quill;help;read'= {
        }
        &'quill;help;write'= {
        }
        &'quill;help;edit'= {
        }
        &'quill;help;glob'= {
        }
        &'quill;help;grep'= {
        }
        &'quill;help;transfer'= {
        }
        &'quill;help;apply'= {
        }
        &'quill;help;undo'= {
        }
        &'quill;help;rm'= {
        }
        &'quill;help;state'= {
            cand show 'List the session''s baselines'
            cand forget 'Forget the baseline of one file'
            cand clear 'Forget every baseline of the session'
        }
        &'quill;help;state;show'= {
        }
        &'quill;help;state;forget'= {
        }
        &'quill;help;state;clear'= {
        }
        &'quill;help;tools'= {
        }
        &'quill;help;call'= {
        }
        &'quill;help;mcp'= {
        }
        &'quill;help;guide'= {
        }
        &'quill;help;completions'= {
        }
        &'quill;help;man'= {
        }
        &'quill;help;schema'= {
        }
        &'quill;help;help'= {
        }
    ]
    $completions[$command]
}
