"""The files appended line by line (the atlas's and the balance designer's results, the
search match's games): `cuttle.files.json_lines` and the one rule of their last line,
a line an interrupted write cut off told from one that only lacks its newline."""

import io
import json

from hypothesis import given
from hypothesis import strategies as st

from cuttle.files import cut_off, cut_off_note, json_lines, mend_tail

RECORDS = st.lists(st.dictionaries(st.text(max_size=4), st.integers() | st.text(max_size=4)
                                   | st.floats(allow_nan=False), max_size=3),
                   min_size=1, max_size=4)


class Appendable(io.BytesIO):
    def fileno(self):           # (mend_tail syncs to disk: nothing to sync here)
        raise io.UnsupportedOperation


def mended(data):
    f = Appendable(data)
    last = None
    for last in json_lines(f, 1 << 20):
        pass
    try:
        mend_tail(f, last)
    except io.UnsupportedOperation:
        pass
    return f.getvalue(), last


@given(records=RECORDS, removed=st.integers(0, 10**6))
def test_a_cut_off_last_line_is_dropped_and_a_whole_one_given_its_newline(records,
                                                                           removed):
    lines = [json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in records]
    removed %= len(lines[-1])       # bytes lost from the end of the last line
    data = b"".join(lines)[:len(b"".join(lines)) - removed]
    got = [(x.lineno, x.value, x.ended) for x in json_lines(io.BytesIO(data), 1 << 20)]
    assert got[:-1] == [(i + 1, r, True) for i, r in enumerate(records[:-1])]
    now, last = mended(data)
    if removed <= 1:                # whole (its newline lost or not): kept, and ended
        assert got[-1][:2] == (len(records), records[-1]) and not cut_off(last)
        assert now == b"".join(lines)
    else:                           # a start of a JSON object short of its end
        assert cut_off(last) and last.lineno == len(records)
        assert now == b"".join(lines[:-1])


@given(line=st.binary(max_size=40))
def test_any_line_is_json_or_says_why_not(line):
    f = io.BytesIO(b'{"a": 1}\n' + line.replace(b"\n", b"") + b"\n{}\n")
    got = list(json_lines(f, 30))
    assert got[0].value == {"a": 1} and got[0].error is None
    x = got[1]
    assert x.error is None or x.value is None
    if len(x.raw) > 30:
        assert x.error == "longer than 30 bytes" and len(got) == 2
    else:
        assert x.lineno == 2 and got[2].value == {} and got[2].offset == 9 + len(x.raw)
        assert x.error is None or x.error.startswith(("not UTF-8", "not JSON"))


def test_a_deeply_nested_line_and_the_words_of_a_cut_off_one():
    (x,) = json_lines(io.BytesIO(b"[" * 100_000 + b"\n"), 1 << 20)
    assert x.error == "the JSON is nested too deeply"
    assert cut_off_note("r.jsonl", 3, True, "it is played again") == (
        "r.jsonl: its last line (line 3) was incomplete (cut off by an interrupted "
        "write?) and is dropped; it is played again")
