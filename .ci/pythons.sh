# Sourced by .ci/run and .ci/wheels: the supported Pythons (from pyproject.toml's
# requires-python up to 3.13) and where each is installed here.
#   find_python 3.9   -> the interpreter of Python 3.9 (pyenv's, or python3.9 on PATH), or nothing
#   $oldest           -> the oldest supported version (e.g. 3.9)
#   supported=(...)   -> every supported version
#   found=(...)       -> those installed here (a note for each missing one)
find_python() {
    local p
    for p in "$HOME"/.pyenv/versions/"$1".*/bin/python"$1" "$(command -v "python$1" || true)"; do
        if [ -x "$p" ]; then echo "$p"; return; fi
    done
}
oldest=$(sed -n 's/^requires-python = ">=\(3\.[0-9]*\)"/\1/p' pyproject.toml)
supported=()
for minor in $(seq "${oldest#3.}" 13); do supported+=("3.$minor"); done
found=()
for v in "${supported[@]}"; do
    if [ -n "$(find_python "$v")" ]; then found+=("$v")
    else echo "note: Python $v is not installed here"; fi
done
