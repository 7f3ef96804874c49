# Shared by scripts/serve and scripts/test: make sure .venv exists (a virtual environment, so pip never
# touches the system's Python, which Debian's "externally managed" Python refuses anyway).
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

ensure_venv() {
  if [ -x .venv/bin/python ]; then return; fi
  if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    version=$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    as_root apt-get update -qq
    as_root apt-get install -y -qq "python${version}-venv" >/dev/null || as_root apt-get install -y -qq python3-venv >/dev/null
  fi
  python3 -m venv .venv
}
