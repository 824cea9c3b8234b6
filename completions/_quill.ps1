
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'quill' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'quill'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'quill' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Show a page of a file with line numbers and record a baseline')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Replace or create a whole file (needs a read baseline for an existing file)')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace an exact, unique passage of a file')
            [CompletionResult]::new('glob', 'glob', [CompletionResultType]::ParameterValue, 'Find files by glob pattern, newest first')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search file contents with a regex, like ripgrep, sorted and paged')
            [CompletionResult]::new('transfer', 'transfer', [CompletionResultType]::ParameterValue, 'Copy or move one file without ever losing or half-publishing it')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Apply a unified diff or a Codex patch to many files: all of them change, or none')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Restore a file to what it was before quill''s last change in this session')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Delete a file the session has read and that is unchanged since; undoable')
            [CompletionResult]::new('state', 'state', [CompletionResultType]::ParameterValue, 'Show or change the session''s read baselines')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'Print function-calling tool definitions for a harness (OpenAI, Anthropic, or quill''s)')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run one tool call given as JSON on stdin, exactly as the command line would')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the tools over the Model Context Protocol on stdin and stdout, for agents that load tools from MCP servers')
            [CompletionResult]::new('guide', 'guide', [CompletionResultType]::ParameterValue, 'Print a compact guide to quill for a shell-only agent''s system prompt')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a roff man page')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema (draft 2020-12) of an op''s JSON answer, or of the error object')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'quill;read' {
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'First line to show, 1-based: a line number (the previous page''s nextOffset); for a directory, the first entry')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most lines to show')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Byte budget of the page; the page ends before the line that would pass it')
            [CompletionResult]::new('--max-line-chars', '--max-line-chars', [CompletionResultType]::ParameterName, 'Cut longer lines in the display (0 = no cap)')
            [CompletionResult]::new('--pages', '--pages', [CompletionResultType]::ParameterName, 'PDF pages to show, e.g. 3 or 2-5 [default: all, up to 20]')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Decode text in this encoding (windows-1251, latin1, shift_jis, utf-8, …) instead of detecting it')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--inline-image', '--inline-image', [CompletionResultType]::ParameterName, 'Include an image''s bytes as base64 `data` (up to 5 MiB)')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'A directory: list hidden entries too')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'A directory: list what .gitignore, .ignore and .git/info/exclude leave out')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;write' {
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'The new content')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Take the new content from this file (''-'' = stdin)')
            [CompletionResult]::new('--expect-sha256', '--expect-sha256', [CompletionResultType]::ParameterName, 'Replace only this version (stands in for a read baseline)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--stdin', '--stdin', [CompletionResultType]::ParameterName, 'Take the new content from stdin (never read unless asked)')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Allow replacing a non-empty file with empty content')
            [CompletionResult]::new('--allow-placeholder', '--allow-placeholder', [CompletionResultType]::ParameterName, 'Allow an omission placeholder (`// ... rest of the code ...`) the file does not have')
            [CompletionResult]::new('--create-only', '--create-only', [CompletionResultType]::ParameterName, 'Refuse if the file exists (create_conflict)')
            [CompletionResult]::new('--no-parents', '--no-parents', [CompletionResultType]::ParameterName, 'Do not create missing parent directories')
            [CompletionResult]::new('--parents', '--parents', [CompletionResultType]::ParameterName, 'Create missing parent directories: the default, accepted as `mkdir -p` and `cp --parents` users type it')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Plan and show the diff; write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;edit' {
            [CompletionResult]::new('--old', '--old', [CompletionResultType]::ParameterName, 'The exact text to replace')
            [CompletionResult]::new('--new', '--new', [CompletionResultType]::ParameterName, 'The replacement text')
            [CompletionResult]::new('--old-file', '--old-file', [CompletionResultType]::ParameterName, 'Read `old` from a file')
            [CompletionResult]::new('--new-file', '--new-file', [CompletionResultType]::ParameterName, 'Read `new` from a file')
            [CompletionResult]::new('--edits', '--edits', [CompletionResultType]::ParameterName, 'A JSON array of edits applied in order, all or nothing (''-'' = stdin)')
            [CompletionResult]::new('--insert-after', '--insert-after', [CompletionResultType]::ParameterName, 'Insert `new` as whole lines after line N of the version read (0 = at the top, the line count = at the end)')
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'Replace lines A to B of the version read (1-based, inclusive: `A-B` or `A,B`) with `new`; an empty `new` deletes them')
            [CompletionResult]::new('--expect-count', '--expect-count', [CompletionResultType]::ParameterName, 'Fail unless exactly N occurrences are found')
            [CompletionResult]::new('--expect-sha256', '--expect-sha256', [CompletionResultType]::ParameterName, 'Edit only this version (stands in for a read baseline)')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Refuse files larger than this')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Edit the file in this encoding (windows-1251, latin1, shift_jis, utf-8, …) instead of the detected one')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--replace-all', '--replace-all', [CompletionResultType]::ParameterName, 'Replace every non-overlapping occurrence')
            [CompletionResult]::new('--fuzzy', '--fuzzy', [CompletionResultType]::ParameterName, 'Apply a unique match that differs only in whitespace, look-alike or invisible characters, read''s line numbers or written-out escapes; the file''s characters stay')
            [CompletionResult]::new('--again', '--again', [CompletionResultType]::ParameterName, 'Apply the edit even though the session''s last change of the file was this same edit')
            [CompletionResult]::new('--allow-placeholder', '--allow-placeholder', [CompletionResultType]::ParameterName, 'Allow an omission placeholder (`// ... existing code ...`) in `new` that `old` and the file do not have')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Plan and show the diff; write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;glob' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most entries to return, 0 = all [default: 100, or $QUILL_LIMIT]')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Entries to skip, 0-based: 0 starts at the first (the previous page''s nextOffset)')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Order of the entries')
            [CompletionResult]::new('--max-walk', '--max-walk', [CompletionResultType]::ParameterName, 'Stop the walk after this many entries')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Match case-insensitively')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Match case-insensitively')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Include hidden files and directories')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honor .gitignore, .ignore and .git/info/exclude')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'Separate paths with NUL instead of newline (text output)')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'Separate paths with NUL instead of newline (text output)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every entry: the same as --limit 0 (for scripts; also QUILL_LIMIT=0)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;grep' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'A pattern (repeatable; lines matching any are found); then every positional is a PATH')
            [CompletionResult]::new('--regexp', '--regexp', [CompletionResultType]::ParameterName, 'A pattern (repeatable; lines matching any are found); then every positional is a PATH')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Stop searching a file after NUM matching lines')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Stop searching a file after NUM matching lines')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Include or (with !) exclude files by glob; repeatable')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Include or (with !) exclude files by glob; repeatable')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Only search files of this type (see --type-list); repeatable')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only search files of this type (see --type-list); repeatable')
            [CompletionResult]::new('-T', '-T ', [CompletionResultType]::ParameterName, 'Skip files of this type; repeatable')
            [CompletionResult]::new('--type-not', '--type-not', [CompletionResultType]::ParameterName, 'Skip files of this type; repeatable')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'What to report')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Lines of context after each match')
            [CompletionResult]::new('--after-context', '--after-context', [CompletionResultType]::ParameterName, 'Lines of context after each match')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Lines of context before each match')
            [CompletionResult]::new('--before-context', '--before-context', [CompletionResultType]::ParameterName, 'Lines of context before each match')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context before and after each match')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context before and after each match')
            [CompletionResult]::new('--max-columns', '--max-columns', [CompletionResultType]::ParameterName, 'Cut lines longer than this with a marker (0 = no cap)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most entries to return, 0 = all [default: 200, or $QUILL_LIMIT]')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Entries to skip, 0-based: 0 starts at the first (the previous page''s nextOffset)')
            [CompletionResult]::new('--max-walk', '--max-walk', [CompletionResultType]::ParameterName, 'Stop the walk after this many entries')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'GNU grep''s --include: use --glob GLOB')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'GNU grep''s --exclude: use --glob ''!GLOB''')
            [CompletionResult]::new('--exclude-dir', '--exclude-dir', [CompletionResultType]::ParameterName, 'GNU grep''s --exclude-dir: use --glob ''!DIR/''')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Treat the pattern as a literal string')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'Treat the pattern as a literal string')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Match case-insensitively')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Match case-insensitively')
            [CompletionResult]::new('-S', '-S ', [CompletionResultType]::ParameterName, 'Case-insensitive unless the pattern has an uppercase letter')
            [CompletionResult]::new('--smart-case', '--smart-case', [CompletionResultType]::ParameterName, 'Case-insensitive unless the pattern has an uppercase letter')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Match whole words only')
            [CompletionResult]::new('--word-regexp', '--word-regexp', [CompletionResultType]::ParameterName, 'Match whole words only')
            [CompletionResult]::new('-x', '-x', [CompletionResultType]::ParameterName, 'Match whole lines only')
            [CompletionResult]::new('--line-regexp', '--line-regexp', [CompletionResultType]::ParameterName, 'Match whole lines only')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Find the lines that do not match')
            [CompletionResult]::new('--invert-match', '--invert-match', [CompletionResultType]::ParameterName, 'Find the lines that do not match')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Show only the matched part of each line, one entry per match')
            [CompletionResult]::new('--only-matching', '--only-matching', [CompletionResultType]::ParameterName, 'Show only the matched part of each line, one entry per match')
            [CompletionResult]::new('-U', '-U ', [CompletionResultType]::ParameterName, 'Let matches span lines')
            [CompletionResult]::new('--multiline', '--multiline', [CompletionResultType]::ParameterName, 'Let matches span lines')
            [CompletionResult]::new('--type-list', '--type-list', [CompletionResultType]::ParameterName, 'List the known file types and exit')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Include hidden files and directories')
            [CompletionResult]::new('--no-ignore', '--no-ignore', [CompletionResultType]::ParameterName, 'Do not honor .gitignore, .ignore and .git/info/exclude')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Follow symbolic links')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only the paths of files with a match (= --mode files)')
            [CompletionResult]::new('--files-with-matches', '--files-with-matches', [CompletionResultType]::ParameterName, 'Only the paths of files with a match (= --mode files)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Matching lines per file (= --mode count; with -o, matches)')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Matching lines per file (= --mode count; with -o, matches)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Show the path of every match (the default)')
            [CompletionResult]::new('--with-filename', '--with-filename', [CompletionResultType]::ParameterName, 'Show the path of every match (the default)')
            [CompletionResult]::new('--no-filename', '--no-filename', [CompletionResultType]::ParameterName, 'Never show paths in content and count output (text output)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show line numbers (the default)')
            [CompletionResult]::new('--line-number', '--line-number', [CompletionResultType]::ParameterName, 'Show line numbers (the default)')
            [CompletionResult]::new('-N', '-N ', [CompletionResultType]::ParameterName, 'Hide line numbers in text output')
            [CompletionResult]::new('--no-line-number', '--no-line-number', [CompletionResultType]::ParameterName, 'Hide line numbers in text output')
            [CompletionResult]::new('--heading', '--heading', [CompletionResultType]::ParameterName, 'Show the path above each file''s matches (default on a terminal)')
            [CompletionResult]::new('--no-heading', '--no-heading', [CompletionResultType]::ParameterName, 'Prefix every line with its path')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'Follow each path with NUL instead of `:` or a newline (text output), for xargs -0')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'Follow each path with NUL instead of `:` or a newline (text output), for xargs -0')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every entry: the same as --limit 0 (for scripts; also QUILL_LIMIT=0)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'GNU grep''s -r/-R: accepted; directories are always searched recursively')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'GNU grep''s -r/-R: accepted; directories are always searched recursively')
            [CompletionResult]::new('-E', '-E ', [CompletionResultType]::ParameterName, 'GNU grep''s -E: accepted; the pattern is an extended (Rust) regex already')
            [CompletionResult]::new('--extended-regexp', '--extended-regexp', [CompletionResultType]::ParameterName, 'GNU grep''s -E: accepted; the pattern is an extended (Rust) regex already')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'GNU grep''s -P: not supported, the pattern is a Rust regex')
            [CompletionResult]::new('--perl-regexp', '--perl-regexp', [CompletionResultType]::ParameterName, 'GNU grep''s -P: not supported, the pattern is a Rust regex')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;transfer' {
            [CompletionResult]::new('--replace-sha256', '--replace-sha256', [CompletionResultType]::ParameterName, 'Replace an existing destination only if it has this SHA-256')
            [CompletionResult]::new('--expect-sha256', '--expect-sha256', [CompletionResultType]::ParameterName, 'The source must have this SHA-256 (checked on what was read)')
            [CompletionResult]::new('--rsh', '--rsh', [CompletionResultType]::ParameterName, 'The command that reaches another machine, split like a shell would (`ssh -p 2222`)')
            [CompletionResult]::new('--remote-quill', '--remote-quill', [CompletionResultType]::ParameterName, 'The command that runs quill on the other machine, given to its shell as it is (`/opt/bin/quill`; global options for that side may follow, such as its root)')
            [CompletionResult]::new('--serve', '--serve', [CompletionResultType]::ParameterName, 'The far side of a transfer across machines: speak this protocol version on stdin and stdout (`ssh HOST quill transfer --serve 1 - -`; SRC and DST are not used)')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'Progress on stderr')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--move', '--move', [CompletionResultType]::ParameterName, 'Remove the source once the destination is committed')
            [CompletionResult]::new('--no-parents', '--no-parents', [CompletionResultType]::ParameterName, 'Do not create missing parent directories of the destination')
            [CompletionResult]::new('--parents', '--parents', [CompletionResultType]::ParameterName, 'Create missing parent directories: the default, accepted as `mkdir -p` and `cp --parents` users type it')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;apply' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Remove N leading components from the unified diff''s paths (git''s a/ and b/ are one)')
            [CompletionResult]::new('--strip', '--strip', [CompletionResultType]::ParameterName, 'Remove N leading components from the unified diff''s paths (git''s a/ and b/ are one)')
            [CompletionResult]::new('--expect-sha256', '--expect-sha256', [CompletionResultType]::ParameterName, 'PATH=HEX: change this file only at this version (stands in for a read baseline)')
            [CompletionResult]::new('--max-file-bytes', '--max-file-bytes', [CompletionResultType]::ParameterName, 'Refuse files (and the patch) larger than this')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--fuzzy', '--fuzzy', [CompletionResultType]::ParameterName, 'Locate hunks that differ only in whitespace or look-alike characters (unique matches)')
            [CompletionResult]::new('--allow-placeholder', '--allow-placeholder', [CompletionResultType]::ParameterName, 'Allow an omission placeholder (`// ... existing code ...`) in added lines that the file does not have')
            [CompletionResult]::new('--unidiff-zero', '--unidiff-zero', [CompletionResultType]::ParameterName, 'Place a unified hunk without context lines (`git diff -U0`) by its line number alone')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Only check that the patch applies (as `git apply --check`); write nothing, show no diff')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Plan and show the combined diff; write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;undo' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the diff; write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;rm' {
            [CompletionResult]::new('--expect-sha256', '--expect-sha256', [CompletionResultType]::ParameterName, 'Delete only this version (stands in for a read baseline)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the diff; remove nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;state' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--all-sessions', '--all-sessions', [CompletionResultType]::ParameterName, 'List every session instead of this one''s baselines')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'List the session''s baselines')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget the baseline of one file')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Forget every baseline of the session')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'quill;state;show' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;state;forget' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;state;clear' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;state;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'List the session''s baselines')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget the baseline of one file')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Forget every baseline of the session')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'quill;state;help;show' {
            break
        }
        'quill;state;help;forget' {
            break
        }
        'quill;state;help;clear' {
            break
        }
        'quill;state;help;help' {
            break
        }
        'quill;tools' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'The shape of the definitions')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;call' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;mcp' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;guide' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;completions' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;man' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;schema' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session whose read baselines guard changes (also QUILL_SESSION) [default: default]')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where sessions, locks and undo history live (also QUILL_STATE_DIR) [default: $XDG_STATE_HOME/quill]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Confine every path to this directory, symlinks resolved (also QUILL_ROOT)')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a lock before lock_timeout (also QUILL_LOCK_TIMEOUT) [default: 30]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color text output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON object on stdout (also QUILL_FORMAT=json)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Print text for people, even when QUILL_FORMAT=json')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Refuse every change (read_only)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Changes need a complete read (every line shown, none cut)')
            [CompletionResult]::new('--merge', '--merge', [CompletionResultType]::ParameterName, 'edit and apply: when the file changed since the read and the change leaves the edit''s lines alone, apply the edit to the current file and show the change in a warning (also QUILL_MERGE)')
            [CompletionResult]::new('--no-keep-reads', '--no-keep-reads', [CompletionResultType]::ParameterName, 'Keep no copy of what is read, so a stale answer cannot show the change since the read (also QUILL_KEEP_READS=0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'quill;help' {
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Show a page of a file with line numbers and record a baseline')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Replace or create a whole file (needs a read baseline for an existing file)')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace an exact, unique passage of a file')
            [CompletionResult]::new('glob', 'glob', [CompletionResultType]::ParameterValue, 'Find files by glob pattern, newest first')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search file contents with a regex, like ripgrep, sorted and paged')
            [CompletionResult]::new('transfer', 'transfer', [CompletionResultType]::ParameterValue, 'Copy or move one file without ever losing or half-publishing it')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Apply a unified diff or a Codex patch to many files: all of them change, or none')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Restore a file to what it was before quill''s last change in this session')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Delete a file the session has read and that is unchanged since; undoable')
            [CompletionResult]::new('state', 'state', [CompletionResultType]::ParameterValue, 'Show or change the session''s read baselines')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'Print function-calling tool definitions for a harness (OpenAI, Anthropic, or quill''s)')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run one tool call given as JSON on stdin, exactly as the command line would')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the tools over the Model Context Protocol on stdin and stdout, for agents that load tools from MCP servers')
            [CompletionResult]::new('guide', 'guide', [CompletionResultType]::ParameterValue, 'Print a compact guide to quill for a shell-only agent''s system prompt')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a roff man page')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema (draft 2020-12) of an op''s JSON answer, or of the error object')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'quill;help;read' {
            break
        }
        'quill;help;write' {
            break
        }
        'quill;help;edit' {
            break
        }
        'quill;help;glob' {
            break
        }
        'quill;help;grep' {
            break
        }
        'quill;help;transfer' {
            break
        }
        'quill;help;apply' {
            break
        }
        'quill;help;undo' {
            break
        }
        'quill;help;rm' {
            break
        }
        'quill;help;state' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'List the session''s baselines')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget the baseline of one file')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Forget every baseline of the session')
            break
        }
        'quill;help;state;show' {
            break
        }
        'quill;help;state;forget' {
            break
        }
        'quill;help;state;clear' {
            break
        }
        'quill;help;tools' {
            break
        }
        'quill;help;call' {
            break
        }
        'quill;help;mcp' {
            break
        }
        'quill;help;guide' {
            break
        }
        'quill;help;completions' {
            break
        }
        'quill;help;man' {
            break
        }
        'quill;help;schema' {
            break
        }
        'quill;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
