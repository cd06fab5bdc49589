"""The report's bestiary pages: their CSVs are the API's, the SRD's attribution is on the pages
and in the CSVs, the configuration's own monsters join the SRD's, and the French pages say the
monster names are left in English."""

from __future__ import annotations

import pandas as pd
import pytest
from pypdf import PdfReader

from explodice import SRD_ATTRIBUTION, bestiary, fp_table, srd_monsters
from explodice.game.monster import monsters_from_toml
from explodice.present import report
from explodice.present.config import load_config
from explodice.present.report import contents, write_report
from tests.test_bestiary_cli import MONSTERS
from tests.test_report import TINY

#: two reports of three pages each (English, French), with their explorers: minutes
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bestiary")
    path = folder / "tiny.toml"
    path.write_text(TINY + MONSTERS, encoding="utf-8")
    shown = {"title", "bestiary-fp", "bestiary"}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(contents, "PAGES", [p for p in contents.PAGES if p.name in shown])
        write_report(path, folder / "en", date="2026-01-02")
        write_report(load_config(path, lang="fr"), folder / "fr", date="2026-01-02")
    return folder, load_config(path)


def table(out, name):
    (found,) = out.glob(f"*-{name}.csv")
    return pd.read_csv(found, keep_default_na=False, na_values=[""])


def test_the_csvs_are_the_apis_with_the_attribution(written):
    folder, config = written
    pool = [*monsters_from_toml(MONSTERS), *srd_monsters()]
    fp = table(folder / "en", "bestiary-fp-fp-table")
    api = fp_table(pool, rules=config.rules)
    assert list(fp.vd_matched) == list(api.vd_matched) and list(fp["count"]) == list(api["count"])
    assert set(fp.attribution) == {SRD_ATTRIBUTION}
    moves = table(folder / "en", "bestiary-bestiary")
    api = bestiary(pool, rules=config.rules)
    assert list(moves.name) == list(api.name)
    assert moves.largest_change.to_numpy() == pytest.approx(api.largest_change.to_numpy())
    own = moves[moves.name.isin(["Mine goblin", "Deep worm"])]
    assert len(own) > 0 and own.attribution.isna().all()
    assert (
        moves[~moves.name.isin(["Mine goblin", "Deep worm"])].attribution == SRD_ATTRIBUTION
    ).all()
    assert {"method", "n", "seed"} <= set(moves.columns)


def test_the_pages_carry_the_attribution(written):
    folder, _ = written
    for lang, says in (("en", "left in English"), ("fr", "laissés en anglais")):
        reader = PdfReader(folder / lang / report.PDF_NAME)
        text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
        assert "Creative Commons Attribution 4.0 International License" in text, lang
        assert "Wizards of the Coast" in text and says in text, lang
