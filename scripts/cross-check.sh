#!/usr/bin/env bash
# Type-check quill for other targets (macOS, Windows, ...) from this Linux x86_64 machine.
#
#   scripts/cross-check.sh [--update] [--allow-fail TARGET]... [TARGET]...
#
#   TARGET          a rustc target triple; default: aarch64-apple-darwin x86_64-pc-windows-msvc
#   --allow-fail T  check T too (if not already listed) and report its errors, but do not fail
#                   the script for it (a target known not to build yet). Repeatable.
#   --update        run `apt-get update` first and move to a newer toolchain if Debian has one.
#
# How: rustup's servers are out of reach here, so there is no prebuilt std for other targets.
# Debian ships a whole Rust toolchain plus the standard library's source (rustc-web, cargo-web,
# libstd-rust-web-*, rust-web-src, from bookworm-security); the script fetches those .debs with
# `apt-get download` (the newest version that both rustc-web and rust-web-src have), unpacks
# them with `dpkg-deb -x` (nothing is installed system-wide) into
# ${CARGO_TARGET_DIR:-target}/cross-toolchain/<version>/, and runs
#   cargo check --lib --bins -Zbuild-std=std,panic_abort --target TARGET
# with that toolchain (RUSTC_BOOTSTRAP=1 for -Zbuild-std), so std is type-checked from source
# for the target and no linker or SDK for it is needed. The check's own target dir is
# ${CARGO_TARGET_DIR:-target}/cross, apart from the normal build's cache.
#
# CI: runs it after the tests, e.g. `bash scripts/cross-check.sh --allow-fail x86_64-pc-windows-msvc`.
# The unpacked toolchain (a marker file `.complete` is written last) is reused by later runs on
# the same machine, which then need no network unless the apt lists name a newer version.
# Prints one line per target (`TARGET: ok` or `TARGET: N errors`), the errors in short form
# (full logs under target/cross/logs/), and where the time went. Exit status: 0 when every
# target not passed with --allow-fail checks clean, 1 when one fails, 2 on a usage error,
# 3 when the toolchain cannot be set up.
#
# Environment: CARGO_TARGET_DIR (see above); CROSS_CHECK_TIMEOUT (seconds per target's cargo
# check, default 1800); CROSS_CHECK_APT_TIMEOUT (seconds per apt step, default 600).
set -euo pipefail

default_targets=(aarch64-apple-darwin x86_64-pc-windows-msvc)
check_timeout=${CROSS_CHECK_TIMEOUT:-1800}
apt_timeout=${CROSS_CHECK_APT_TIMEOUT:-600}

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "cross-check: $*" >&2; exit 3; }

targets=() allow_fail=() update=0
while (($#)); do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --update) update=1 ;;
    --allow-fail) (($# >= 2)) || { echo "cross-check: --allow-fail needs a TARGET" >&2; exit 2; }
                  allow_fail+=("$2"); shift ;;
    --allow-fail=*) allow_fail+=("${1#*=}") ;;
    --) shift; targets+=("$@"); break ;;
    -*) echo "cross-check: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
((${#targets[@]})) || targets=("${default_targets[@]}")
for t in "${allow_fail[@]}"; do
  [[ " ${targets[*]} " == *" $t "* ]] || targets+=("$t")
done
is_allowed() { [[ " ${allow_fail[*]} " == *" $1 "* ]]; }

root_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root_dir"
out=${CARGO_TARGET_DIR:-target}
[[ $out == /* ]] || out=$root_dir/$out
tc_base=$out/cross-toolchain
check_dir=$out/cross
mkdir -p "$tc_base" "$check_dir/logs"

# ----------------------------------------------------------------------------- timing
timing=()
t_start=$(date +%s)
step_t0=0
step_begin() { step_t0=$(date +%s); }
step_end() { timing+=("$(printf '%6ss  %s' "$(($(date +%s) - step_t0))" "$1")"); }
report_times() {
  echo "time:"
  ((${#timing[@]})) && printf '  %s\n' "${timing[@]}"
  printf '  %6ss  total\n' "$(($(date +%s) - t_start))"
}

# ----------------------------------------------------------------------------- toolchain
# The versions that apt offers for a package (from the current lists; no network).
versions_of() {
  timeout 60 apt-cache madison "$1" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' |
    LC_ALL=C sort -u
}
# The newest version that rustc-web, cargo-web, libstd-rust-web-dev and rust-web-src all have.
pick_version() {
  command -v apt-cache >/dev/null || return 0
  local common best="" v
  common=$(LC_ALL=C comm -12 <(versions_of rustc-web) <(versions_of rust-web-src) |
    LC_ALL=C comm -12 - <(versions_of cargo-web) | LC_ALL=C comm -12 - <(versions_of libstd-rust-web-dev))
  for v in $common; do
    if [[ -z $best ]] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
  done
  echo "$best"
}
# The package names in PKG=VERSION's Depends that match REGEX.
deps_matching() {
  timeout 60 apt-cache show "$1" 2>/dev/null | grep -m1 '^Depends:' | sed 's/^Depends://' |
    sed 's/[,|]/\n/g' | awk '{print $1}' | grep -E "^($2)\$" || true
}
newest_complete() {
  local d best=""
  for d in "$tc_base"/*/.complete; do
    [[ -e $d ]] || continue
    d=$(basename "$(dirname "$d")")
    if [[ -z $best ]] || dpkg --compare-versions "$d" gt "$best"; then best=$d; fi
  done
  echo "$best"
}

# Downloads and unpacks toolchain version $1 into $tc_base/$1; the marker is written last.
install_toolchain() {
  local v=$1 dir=$tc_base/$1 libstd llvm extra sim p f
  rm -rf "$dir"
  mkdir -p "$dir/deb"
  libstd=$(deps_matching "rustc-web=$v" 'libstd-rust-web-1\.[0-9]+')
  [[ -n $libstd ]] || libstd=$(deps_matching "libstd-rust-web-dev=$v" 'libstd-rust-web-1\.[0-9]+')
  [[ -n $libstd ]] || { echo "no libstd-rust-web-1.NN in the Depends of rustc-web=$v" >&2; return 1; }
  llvm=$(deps_matching "rustc-web=$v" 'libllvm[0-9]+')
  [[ -n $llvm ]] || llvm=$(deps_matching "$libstd=$v" 'libllvm[0-9]+')
  [[ -n $llvm ]] || { echo "no libllvmNN in the Depends of rustc-web=$v or $libstd=$v" >&2; return 1; }
  local pkgs=("rustc-web=$v" "cargo-web=$v" "libstd-rust-web-dev=$v" "$libstd=$v" "rust-web-src=$v"
              "$llvm" binutils-mingw-w64-x86-64)
  # Shared libraries that cargo/rustc need and this machine lacks (libgit2, mbedtls, ... on
  # bookworm): ask apt what an install would add, keep the runtime libraries, install nothing.
  if sim=$(timeout 120 apt-get -s install --no-install-recommends "${pkgs[@]}" 2>/dev/null); then
    extra=$(awk '$1 == "Inst" {print $2}' <<<"$sim" | grep -E '^lib' | grep -vE -- '-dev$' |
      grep -vxE "libstd-rust-web-dev|$libstd|$llvm" || true)
  else
    echo "warning: apt-get -s install failed; using bookworm's list of cargo's libraries" >&2
    extra="libgit2-1.5 libmbedtls14 libmbedx509-1 libmbedcrypto7 libhttp-parser2.9"
  fi
  for p in $extra; do pkgs+=("$p"); done
  echo "downloading: ${pkgs[*]}"
  local sandbox=()
  [[ $(id -u) == 0 ]] && sandbox=(-o APT::Sandbox::User=root)
  step_begin
  (cd "$dir/deb" && timeout "$apt_timeout" apt-get -q "${sandbox[@]}" download "${pkgs[@]}") >"$dir/download.log" 2>&1 ||
    { tail -20 "$dir/download.log" >&2; step_end "apt-get download (failed)"; return 1; }
  local bytes debs=("$dir"/deb/*.deb)
  bytes=$(du -cb "${debs[@]}" | tail -1 | cut -f1)
  step_end "apt-get download ($((bytes / 1048576)) MiB, ${#debs[@]} packages)"
  printf '%s\n' "${debs[@]##*/}" >"$dir/packages.txt"
  echo "$bytes" >"$dir/download-bytes"
  step_begin
  for f in "$dir"/deb/*.deb; do
    timeout 300 dpkg-deb -x "$f" "$dir/root" || { echo "dpkg-deb -x $f failed" >&2; step_end "unpack (failed)"; return 1; }
  done
  step_end "unpack"
  rm -rf "$dir/deb"
  # Every shared library that rustc and cargo load is found, and the std source is there.
  local missing
  missing=$(LD_LIBRARY_PATH=$dir/root/usr/lib/x86_64-linux-gnu ldd "$dir/root/usr/bin/rustc" \
    "$dir/root/usr/bin/cargo" "$dir"/root/usr/lib/x86_64-linux-gnu/librustc_driver-*.so 2>&1 |
    grep 'not found' | sort -u || true)
  [[ -z $missing ]] || { echo "libraries not found after unpacking:"$'\n'"$missing" >&2; return 1; }
  [[ -e $dir/root/usr/lib/rustlib/src/rust/library/Cargo.lock ]] ||
    { echo "rust-web-src did not provide usr/lib/rustlib/src/rust/library" >&2; return 1; }
  LD_LIBRARY_PATH=$dir/root/usr/lib/x86_64-linux-gnu "$dir/root/usr/bin/rustc" -V >/dev/null ||
    { echo "the unpacked rustc does not run" >&2; return 1; }
  date -u +%FT%TZ >"$dir/.complete"
  # Older toolchains (about 900 MB each) are no longer needed.
  for f in "$tc_base"/*/; do
    [[ ${f%/} == "$dir" ]] || rm -rf "${f%/}"
  done
}

setup_toolchain() {
  step_begin
  version=$(pick_version)
  step_end "apt-cache lookup"
  if ((update)) || [[ -z $version || ! -e $tc_base/$version/.complete ]]; then
    if command -v apt-get >/dev/null; then
      step_begin
      timeout "$apt_timeout" apt-get update -qq >"$tc_base/apt-update.log" 2>&1 ||
        { echo "warning: apt-get update failed:" >&2; tail -5 "$tc_base/apt-update.log" >&2; }
      step_end "apt-get update"
      version=$(pick_version)
    fi
  fi
  if [[ -n $version && ! -e $tc_base/$version/.complete ]]; then
    echo "toolchain $version: fetching into ${tc_base#"$root_dir"/}/$version"
    if ! install_toolchain "$version"; then
      local old
      old=$(newest_complete)
      [[ -n $old ]] || die "could not set up toolchain $version"
      echo "warning: could not set up toolchain $version; using $old" >&2
      version=$old
    fi
  elif [[ -z $version ]]; then
    version=$(newest_complete)
    [[ -n $version ]] || die "apt offers no common version of rustc-web and rust-web-src (bookworm-security?)"
    echo "warning: apt offers no rustc-web/rust-web-src; using the unpacked $version" >&2
  fi
  echo "toolchain: $version (${tc_base#"$root_dir"/}/$version)"
}

exec 9>"$tc_base/.lock"
flock -w 1800 9 || die "another cross-check holds $tc_base/.lock"
setup_toolchain
exec 9>&-
sysroot=$tc_base/$version/root
export PATH=$sysroot/usr/bin:$PATH
export LD_LIBRARY_PATH=$sysroot/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export RUSTC=$sysroot/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=$check_dir
unset RUSTC_WRAPPER RUSTC_WORKSPACE_WRAPPER RUSTDOC RUSTUP_TOOLCHAIN CARGO
cargo=$sysroot/usr/bin/cargo

known=$("$RUSTC" --print target-list)
for t in "${targets[@]}"; do
  grep -qxF -- "$t" <<<"$known" || { echo "cross-check: unknown target $t" >&2; exit 2; }
done

# ----------------------------------------------------------------------------- checks
summary=() failed=0
for t in "${targets[@]}"; do
  log=$check_dir/logs/$t.log
  echo "== $t: cargo check --lib --bins (log: ${log#"$root_dir"/})"
  step_begin
  rc=0
  timeout --kill-after=30 "$check_timeout" "$cargo" check --locked --keep-going \
    -Zbuild-std=std,panic_abort --target "$t" --lib --bins --message-format short >"$log" 2>&1 || rc=$?
  step_end "cargo check $t"
  # Errors: `file:line:col: error[...]: msg`, and cargo's own `error: ...` lines other than
  # its `could not compile ... due to N previous errors` summaries.
  errors=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: error(\[E[0-9]+\])?: |^error(\[E[0-9]+\])?: ' "$log" |
    grep -vE '^error: could not compile |^error: aborting due to ' || true)
  n=0
  [[ -z $errors ]] || n=$(wc -l <<<"$errors")
  warnings=$(grep -cE '^[^ ]+:[0-9]+:[0-9]+: warning' "$log" || true)
  if ((rc == 0 && n == 0)); then
    line="$t: ok"
  elif ((rc == 124 || rc == 137)); then
    line="$t: timed out after ${check_timeout}s"
  elif ((n == 0)); then
    line="$t: cargo failed (exit $rc)"
  else
    line="$t: $n errors"
  fi
  if [[ $line != *": ok" ]]; then
    if is_allowed "$t"; then line+=" (allowed to fail)"; else failed=1; fi
    if [[ -n $errors ]]; then printf '%s\n' "$errors"; else tail -30 "$log"; fi
  fi
  ((warnings == 0)) || echo "($warnings warnings, not shown: see the log)"
  echo "$line"
  summary+=("$line")
done

echo
echo "summary (toolchain $version):"
printf '  %s\n' "${summary[@]}"
report_times
exit "$failed"
