#!/usr/bin/env bash
# Build quill for Windows (x86_64-pc-windows-gnu) on this Linux machine and run it under Wine:
# read -> edit -> undo -> grep on a CRLF file, a change behind quill's back (`stale`), glob,
# write and transfer that never replace, apply and its undo, rm and its undo, and `--root`
# refused. Each step checks the exit code, the output and the bytes on disk.
#
#   scripts/wine-smoke.sh
#
# How: the toolchain is the one scripts/cross-check.sh unpacks (Debian's rustc-web and the
# standard library's source; the script runs it first, which also type-checks the gnu target);
# std is built from source (-Zbuild-std) and linked with mingw-w64's gcc; the .exe runs under
# Debian's wine64 (8.0). Both packages are installed with apt-get when missing (about 210 MB;
# needs root). Wine 8.0 lacks bcryptprimitives.dll, whose ProcessPrng Rust's std imports for
# random numbers: a ten-line stub built here with mingw forwards it to advapi32's RtlGenRandom
# and goes into the Wine prefix's system32. Without it every Rust program fails to load.
#
# Output under ${CARGO_TARGET_DIR:-target}/wine/: the build (quill.exe), the Wine prefix
# (about 700 MiB, reused), logs. Cold: ~6 min on 2 cores (std and every crate built for
# Windows); warm: ~30 s. Exit status 0 when every step passed, 1 when one failed, 3 when the
# tools cannot be set up.
set -euo pipefail

die() { echo "wine-smoke: $*" >&2; exit 3; }
root_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root_dir"
out=${CARGO_TARGET_DIR:-target}
[[ $out == /* ]] || out=$root_dir/$out
work=$out/wine
mkdir -p "$work"
target=x86_64-pc-windows-gnu
t0=$(date +%s)
say() { echo "[$(($(date +%s) - t0))s] $*"; }

# ------------------------------------------------------------------ tools
wine=/usr/lib/wine/wine64
need=()
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need+=(gcc-mingw-w64-x86-64)
[[ -x $wine ]] || need+=(wine64)
if ((${#need[@]})); then
  command -v apt-get >/dev/null 2>&1 || die "needs ${need[*]} (Debian packages) and apt-get"
  say "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || true
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null ||
    die "cannot install ${need[*]}"
fi
[[ -x $wine ]] || die "no $wine after installing wine64"

# The toolchain, unpacked (and the gnu target type-checked) by cross-check.sh.
bash scripts/cross-check.sh "$target" >"$work/cross-check.log" 2>&1 ||
  { tail -20 "$work/cross-check.log"; die "scripts/cross-check.sh $target failed"; }
sysroot=
for d in "$out"/cross-toolchain/*/.complete; do
  [[ -e $d ]] && sysroot=$(dirname "$d")/root
done
[[ -n $sysroot && -x $sysroot/usr/bin/rustc ]] || die "no unpacked toolchain under $out/cross-toolchain"
say "toolchain: $sysroot"

# ------------------------------------------------------------------ build
(
  export PATH=$sysroot/usr/bin:$PATH
  export LD_LIBRARY_PATH=$sysroot/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export RUSTC=$sysroot/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=$work/build
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
  unset RUSTC_WRAPPER RUSTC_WORKSPACE_WRAPPER RUSTDOC RUSTUP_TOOLCHAIN CARGO
  cargo build --locked --bin quill -Zbuild-std=std,panic_unwind --target "$target" \
    --config 'profile.dev.debug=0' >"$work/build.log" 2>&1
) || { grep -E '^(error|warning)' -A6 "$work/build.log" | head -40; tail -5 "$work/build.log"; echo "wine-smoke: the build failed (log: $work/build.log)" >&2; exit 1; }
exe=$work/build/$target/debug/quill.exe
[[ -f $exe ]] || die "no $exe after the build"
say "built $exe"

# ------------------------------------------------------------------ Wine prefix
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" DISPLAY=
stub=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
if [[ ! -e $stub ]]; then
  # Bounded: a Wine that hangs must fail the run, not stall CI.
  timeout 300 "$wine" wineboot -i >/dev/null 2>&1 || true
  timeout 300 /usr/lib/wine/wineserver -w || true
  [[ -d $WINEPREFIX/drive_c/windows/system32 ]] || die "wineboot made no prefix at $WINEPREFIX"
  cat >"$work/bcryptprimitives.c" <<'C'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len); /* advapi32's RtlGenRandom */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE p, SIZE_T n) {
  while (n) { ULONG k = n > 0x40000000 ? 0x40000000 : (ULONG)n;
              if (!SystemFunction036(p, k)) return FALSE; p += k; n -= k; }
  return TRUE; }
C
  x86_64-w64-mingw32-gcc -O2 -shared -s -o "$stub" "$work/bcryptprimitives.c" -ladvapi32 ||
    die "cannot build the bcryptprimitives.dll stub"
fi
trap '/usr/lib/wine/wineserver -k >/dev/null 2>&1 || true' EXIT
say "prefix: $WINEPREFIX"

# ------------------------------------------------------------------ the smoke run
dir=$(mktemp -d)
trap '/usr/lib/wine/wineserver -k >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
cd "$dir"
export QUILL_SESSION=smoke-$$
failed=0
# step NAME WANT_RC WANT_TEXT -- ARGS...: run quill.exe (at most 2 minutes: a hang is exit
# 124), check its exit code and that its stdout+stderr contains WANT_TEXT (empty: anything).
step() {
  local name=$1 want_rc=$2 want=$3; shift 4
  local got rc=0
  got=$(timeout 120 "$wine" "$exe" "$@" 2>&1 </dev/null) || rc=$?
  if [[ $rc != "$want_rc" ]] || [[ -n $want && $got != *"$want"* ]]; then
    echo "FAIL $name: quill $* -> exit $rc (want $want_rc), output:"
    printf '%s\n' "$got" | sed 's/^/    /' | head -20
    [[ -n $want ]] && echo "    (wanted it to contain: $want)"
    failed=1
  else
    echo "ok   $name"
  fi
}
# bytes NAME FILE PRINTF_FORMAT: FILE holds exactly those bytes.
bytes() {
  if cmp -s "$2" <(printf "$3"); then
    echo "ok   $1"
  else
    echo "FAIL $1: $2 holds:"; od -c "$2" | head -8 | sed 's/^/    /'; failed=1
  fi
}

original='fn main() {\r\n    println!("hi");\r\n}\r\n'
printf "$original" >a.rs
mkdir src && printf 'x\n' >src/b.rs
step version 0 "quill " -- --version
step "edit before read" 3 "not_read" -- edit a.rs --old hi --new yo --json
bytes "nothing written" a.rs "$original"
step read 0 'println!("hi")' -- read a.rs
step "read --json" 0 '"lineEnding":"crlf"' -- read a.rs --json
step edit 0 "wrote a.rs" -- edit a.rs --old '"hi"' --new '"hello"'
bytes "edit keeps CRLF" a.rs 'fn main() {\r\n    println!("hello");\r\n}\r\n'
step undo 0 "restored a.rs" -- undo a.rs
bytes "undo restores" a.rs "$original"
step grep 0 'a.rs:2:    println!("hi");' -- grep hi
step "grep below a path" 0 "src\\b.rs:1:x" -- grep x src
step glob 0 "src\\b.rs" -- glob '**/*.rs'
step "read again" 0 "" -- read a.rs
printf 'changed\r\n' >>a.rs
step "stale" 3 '"kind":"stale"' -- edit a.rs --old hi --new yo --json
bytes "stale left alone" a.rs "${original}changed\\r\\n"
step "--root refused" 2 '"kind":"invalid_argument"' -- --root . read a.rs --json
step "write a new file" 0 "" -- write c.txt --content 'one'
bytes "new file" c.txt 'one'
step "create never replaces" 3 '"kind":"create_conflict"' -- write c.txt --content two --create-only --json
bytes "create left it" c.txt 'one'
printf 'two' >d.txt
step "transfer onto a file" 3 '"kind":"destination_exists"' -- transfer d.txt c.txt --json
step "transfer --move" 0 "" -- transfer d.txt e.txt --move
bytes "moved" e.txt 'two'
[[ ! -e d.txt ]] && echo "ok   source gone" || { echo "FAIL source gone: d.txt is still there"; failed=1; }
# A multi-file change (journaled: its directory flushed), then undone as one.
printf -- '--- a/src/b.rs\n+++ b/src/b.rs\n@@ -1 +1 @@\n-x\n+z\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+new\n' >p.patch
step "apply before a read" 3 "not_read" -- apply p.patch
step "read src/b.rs" 0 "" -- read src/b.rs
step apply 0 "" -- apply p.patch
bytes "apply changed" src/b.rs 'z\n'
bytes "apply created" n.txt 'new\n'
step "undo the apply" 0 "" -- undo
bytes "undo restored" src/b.rs 'x\n'
[[ ! -e n.txt ]] && echo "ok   undo removed the created file" || { echo "FAIL undo removed the created file: n.txt is there"; failed=1; }
step "read e.txt" 0 "" -- read e.txt
step rm 0 "removed e.txt" -- rm e.txt
[[ ! -e e.txt ]] && echo "ok   rm removed it" || { echo "FAIL rm removed it: e.txt is there"; failed=1; }
step "undo the rm" 0 "" -- undo e.txt
bytes "rm undone" e.txt 'two'
step "glob, a drive-absolute pattern" 0 "b.rs" -- glob "Z:$dir/**/*.rs"

echo "time: $(($(date +%s) - t0))s"
if ((failed)); then
  echo "wine-smoke: some steps failed"
  exit 1
fi
echo "wine-smoke: every step passed"
