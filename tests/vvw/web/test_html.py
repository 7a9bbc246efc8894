"""The one HTML builder (vvw/web/html.py): text and attributes escaped unless marked markup."""

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from vvw.web.html import Markup, document, element, join, markup, render

# Text as a browser gets it: no NUL, no lone surrogates, no carriage returns (which HTML
# folds into new lines), no other control characters (which HTML replaces).
TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\x00")
    | st.sampled_from("\n\t")
)


class Reader(HTMLParser):
    """The elements opened, with their attributes, and the text, as a browser reads them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text = ""

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text += data


def read(page: str) -> Reader:
    reader = Reader()
    reader.feed(page)
    reader.close()
    return reader


@given(TEXT)
def test_any_text_reads_back_as_the_same_text_in_one_element(text: str) -> None:
    reader = read(element("p", text))
    assert reader.tags == [("p", {})]
    assert reader.text == text


@given(TEXT, TEXT)
def test_any_attribute_value_reads_back_as_itself(value: str, text: str) -> None:
    reader = read(element("a", text, href=value, title=value))
    assert reader.tags == [("a", {"href": value, "title": value})]
    assert reader.text == text


@given(st.lists(TEXT, max_size=5))
def test_texts_joined_read_back_joined(texts: list[str]) -> None:
    reader = read(element("div", join(", ", texts)))
    assert reader.text == ", ".join(texts) and reader.tags == [("div", {})]


def test_only_markup_goes_in_as_it_is() -> None:
    assert element("b", "<i>") == "<b>&lt;i&gt;</b>"
    assert element("b", markup("<i>x</i>")) == "<b><i>x</i></b>"
    assert isinstance(element("b"), Markup) and render(None) == ""
    assert render(["a", 1, None, [element("i", "&")]]) == "a1<i>&amp;</i>"


def test_attributes_are_named_as_html_names_them_and_none_leaves_one_out() -> None:
    assert element("tr", data_game=3, class_=None, hidden=True) == '<tr data-game="3" hidden></tr>'
    assert element("meta", charset="utf-8") == '<meta charset="utf-8">'


def test_a_document_has_its_title_escaped_and_the_palette_in_its_style() -> None:
    page = document("<x>", "p { margin: 0; }", element("p", "hi"))
    reader = read(page)
    tags = ["html", "head", "meta", "meta", "title", "style", "body", "p"]
    assert [tag for tag, _ in reader.tags] == tags
    assert "<title>&lt;x&gt;</title>" in page and "--vampires: " in page
    assert page.startswith("<!DOCTYPE html>\n")


def test_no_html_is_written_in_an_f_string_outside_the_builder() -> None:
    vvw = Path(__file__).resolve().parents[3] / "vvw"
    tag = re.compile(r"<[a-zA-Z!/]")
    found = [
        f"{path.relative_to(vvw)}:{node.lineno}"
        for path in vvw.rglob("*.py")
        if path != vvw / "web" / "html.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.JoinedStr)
        and any(
            isinstance(part, ast.Constant) and tag.search(str(part.value)) for part in node.values
        )
    ]
    assert found == []
