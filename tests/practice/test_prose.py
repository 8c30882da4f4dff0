from trainer.practice.templatetags.prose import prose


def test_it_joins_wrapped_lines_into_paragraphs():
    assert prose("one\ntwo\n\nthree") == "<p>one two</p>\n<p>three</p>"


def test_it_makes_lists_from_dash_lines_with_continuations():
    html = prose("Configs:\n- vLLM, TP 4,\n  p99 19 ms\n- SGLang")
    assert html == "<p>Configs:</p>\n<ul><li>vLLM, TP 4, p99 19 ms</li><li>SGLang</li></ul>"


def test_it_escapes_everything():
    assert prose("<script>alert(1)</script> & <b>") == (
        "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;</p>"
    )


def test_it_takes_nothing():
    assert prose("") == "" and prose(None) == ""
