"""The map layout: a point for every place of the board, and clear errors for a bad file."""

from __future__ import annotations

import pytest

from topology import MapDataError, load_layout, standard, standard_layout


def test_every_place_has_a_point_on_the_page():
    layout = standard_layout()
    assert set(layout.points) == {str(loc) for loc in standard().locations()}
    for x, y in layout.points.values():
        assert 0 <= x <= layout.width and 0 <= y <= layout.height


def test_no_two_provinces_are_drawn_on_top_of_each_other():
    layout = standard_layout()
    points = sorted(layout.points.items())
    for i, (a, (ax, ay)) in enumerate(points):
        for b, (bx, by) in points[i + 1 :]:
            assert abs(ax - bx) >= 40 or abs(ay - by) >= 30, (a, b)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda t: t.replace('"stp/nc" = [875, 125]\n', ""), "missing: stp/nc"),
        (lambda t: t + "xyz = [1, 1]\n", "unknown: xyz"),
        (lambda t: t.replace("nao = [90, 200]", "nao = [90, 2000]"), "places.nao: expected [x, y]"),
        (lambda t: t.replace("width = 1100", "width = -1"), "positive numbers"),
        (lambda t: t.replace("[places]", "[places"), "not valid TOML"),
    ],
)
def test_a_bad_layout_names_file_and_fault(tmp_path, edit, message):
    path = tmp_path / "layout.toml"
    path.write_text(edit(standard().drawing.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(MapDataError) as error:
        load_layout(path, standard())
    assert str(error.value).startswith(str(path))
    assert message in str(error.value)
