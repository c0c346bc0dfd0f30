"""The players' phone page behind a board's moves link and the arbiter's slips: a link per
player, no login, no script, CSRF, noindex, no Referer, throttled, size-capped; White's and
Black's agreeing moves stored at once."""

from __future__ import annotations

import datetime as dt
import logging
import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from clubrating.club.services import evening as ev
from clubrating.club.services import pairing_changes
from clubrating.club.store.models import Club, Game, MovesLink, MovesSubmission, Tournament
from clubrating.club.services import moves_links as ml
from clubrating.web.security import HideMovesTokens
from tests.formats.long_games import long_game
from tests.web.rendered import flat
from clubrating.club.services.clubs import set_privacy
from clubrating.club.services.names import accept_exact, all_new_members

ITALIAN = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5"


def print_slips(arbiter_client: Client, t: Tournament, round_: int = 1) -> tuple[str, list[str]]:
    page = arbiter_client.post(
        f"/c/riverside/arbiter/t/{t.id}/slips/", {"action": "print", "round": str(round_)}
    )
    assert page.status_code == 200 and page["Referrer-Policy"] == "strict-origin"
    text = page.content.decode()
    return text, re.findall(r"http://testserver/m/([A-Za-z0-9_-]+)/", text)


def game(t: Tournament, white: str) -> Game:
    return Game.objects.get(tournament=t, round=1, white__name=white)


def phone_post(client: Client, token: str, moves: str, **extra: str) -> tuple[int, str]:
    client.get(f"/m/{token}/")
    response = client.post(
        f"/m/{token}/",
        {"moves": moves, "csrfmiddlewaretoken": client.cookies["csrftoken"].value},
        **extra,
    )
    return response.status_code, response.content.decode()


def test_the_slips_show_each_board_with_result_boxes_and_a_qr_code_and_link_under_each_players_name(
    evening: Tournament, arbiter_client: Client
) -> None:
    page, tokens = print_slips(arbiter_client, evening)
    assert (
        len(tokens) == 4
    )  # two boards, a link per player printed as text (the QR code holds it too)
    assert page.count('class="slip"') == 2 and page.count("<svg") == 4
    labels = re.findall(r'<figcaption class="player">([^<]*)</figcaption>', flat(page))
    assert labels == [
        "White: Anna Smith",
        "Black: Bob Jones",
        "White: Carl Berg",
        "Black: D. W.",
    ]  # a junior
    assert "Dana White" not in page and "@media print" in page and "1-0</span><span>½-½" in page
    listed = arbiter_client.get(f"/c/riverside/arbiter/t/{evening.id}/slips/").content.decode()
    assert "Revoke" in listed and tokens[0] not in listed  # shown once, on the slips
    Client().get(f"/m/{tokens[0]}/")  # Anna's phone opens her link
    listed = arbiter_client.get(f"/c/riverside/arbiter/t/{evening.id}/slips/").content.decode()
    opened = [o.strip() for o in re.findall(r'<td class="opened">([^<]*)', listed)]
    assert opened == ["yes: it belongs to that phone"] + ["not yet"] * 3


def test_a_private_clubs_slips_show_full_names_and_its_phone_pages_stay_initials(
    evening: Tournament, arbiter_client: Client
) -> None:
    set_privacy(evening.club, who="test", visibility="arbiter")
    page = arbiter_client.post(
        f"/c/riverside/arbiter/t/{evening.id}/slips/", {"action": "print", "round": "1"}
    ).content.decode()
    tokens = re.findall(r"http://testserver/m/([A-Za-z0-9_-]+)/", page)
    labels = re.findall(r'<figcaption class="player">([^<]*)</figcaption>', flat(page))
    assert labels == [
        "White: Anna Smith",
        "Black: Bob Jones",
        "White: Carl Berg",
        "Black: Dana White",
    ]
    phone = Client().get(f"/m/{tokens[0]}/").content.decode()
    assert "A. S." in phone and "Anna Smith" not in phone


def test_a_player_opens_the_link_without_logging_in_and_sees_the_board_under_the_name_rules(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    response = Client().get(f"/m/{tokens[-1]}/")  # board 2: Carl Berg - Dana White, a junior
    page = response.content.decode()
    assert response.status_code == 200 and "<script" not in page
    assert "C. B. – D. W." in page or "Carl Berg – D. W." in page
    assert "Dana White" not in page and 'name="robots" content="noindex' in page
    assert (
        response["X-Robots-Tag"] == "noindex, nofollow"
        and response["Referrer-Policy"] == "strict-origin"
    )
    assert response["Cache-Control"] == "no-store" and "csrfmiddlewaretoken" in page


def test_an_illegal_move_is_one_message_with_the_board_and_the_text_kept(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    status, page = phone_post(Client(enforce_csrf_checks=True), tokens[0], "1. e4 e5 2. Ke3")
    assert status == 200 and "Move 2 (White) &#x27;Ke3&#x27;: illegal" in page
    assert "<svg" in page and "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" in page
    assert ">1. e4 e5 2. Ke3</textarea>" in page
    assert not MovesSubmission.objects.exists()


def test_two_players_who_agree_store_the_game_and_two_who_differ_wait_for_the_arbiter(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    anna, bob, carl, dana = tokens
    assert (
        "the arbiter checks them" in phone_post(Client(enforce_csrf_checks=True), anna, ITALIAN)[1]
    )
    assert "stored" in phone_post(Client(enforce_csrf_checks=True), bob, "e4 e5 Кf3 Кc6 Сc4 Сc5")[1]
    assert game(evening, "Anna Smith").moves == f"{ITALIAN} 1-0"
    assert "moves are stored" in Client().get(f"/m/{anna}/").content.decode()
    page = flat(
        arbiter_client.get(
            f"/c/riverside/arbiter/g/{game(evening, 'Anna Smith').id}/"
        ).content.decode()
    )
    assert page.count("by White (Anna Smith): accepted (White's and Black's moves agreed)") == 1
    assert page.count("by Black (Bob Jones): accepted (White's and Black's moves agreed)") == 1

    phone_post(Client(enforce_csrf_checks=True), carl, ITALIAN)
    phone_post(Client(enforce_csrf_checks=True), dana, "1. e4 e5 2. Nf3 Nc6 3. Bb5")
    assert game(evening, "Carl Berg").moves == ""
    url = f"/c/riverside/arbiter/g/{game(evening, 'Carl Berg').id}/"
    page = flat(arbiter_client.get(url).content.decode())
    assert "<strong>differs from the first at move 3 (White): Bc4 / Bb5</strong>" in page
    chosen = MovesSubmission.objects.get(text="1. e4 e5 2. Nf3 Nc6 3. Bb5")
    assert arbiter_client.post(url, {"submission": str(chosen.id)}).status_code == 302
    assert game(evening, "Carl Berg").moves == "1. e4 e5 2. Nf3 Nc6 3. Bb5 1/2-1/2"
    page = flat(arbiter_client.get(url).content.decode())
    assert "by Black (Dana White): accepted (picked by the arbiter)" in page
    assert "by White (Carl Berg): set aside (another submission was accepted)" in page


def test_the_arbiters_page_says_a_link_of_either_player_waits_for_the_arbiter(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    MovesLink.objects.update(player=None, colour="")  # links made before they were one per player
    for _ in range(2):
        assert (
            "through a link of either player"
            in phone_post(Client(enforce_csrf_checks=True), tokens[0], ITALIAN)[1]
        )
    assert game(evening, "Anna Smith").moves == ""
    page = flat(
        arbiter_client.get(
            f"/c/riverside/arbiter/g/{game(evening, 'Anna Smith').id}/"
        ).content.decode()
    )
    assert page.count("by either side (a link of the board)") == 2
    assert "they are never stored by agreement, and wait for you to accept them" in page
    assert "the board's, not one player's" in Client().get(f"/m/{tokens[0]}/").content.decode()


@pytest.mark.parametrize(
    "moves, said",
    [
        (
            long_game(1_204),
            "longer than 1,200 half-moves",
        ),  # 1,204 legal plies (tests/formats/long_games.py)
        (
            "1. e4 e5 2. Qh5 d6 3. Bc4 Nf6 4. Qxe5#",
            "Move 4 (White) &#x27;Qxe5#&#x27;: written as mate (#)",
        ),
    ],
)
def test_the_phone_page_refuses_what_the_arbiters_form_refuses_and_keeps_the_text(
    evening: Tournament, arbiter_client: Client, moves: str, said: str
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    status, page = phone_post(Client(enforce_csrf_checks=True), tokens[0], moves)
    assert status == 200 and said in page and f">{moves}</textarea>" in page
    assert not MovesSubmission.objects.exists() and game(evening, "Anna Smith").moves == ""


def test_a_post_without_the_csrf_token_stores_nothing(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    assert (
        Client(enforce_csrf_checks=True).post(f"/m/{tokens[0]}/", {"moves": ITALIAN}).status_code
        == 403
    )
    assert not MovesSubmission.objects.exists()


def test_a_wrong_or_revoked_link_is_404_with_noindex_and_no_referrer(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    wrong = Client().get("/m/not-a-token-at-all-0123456/")
    assert wrong.status_code == 404 and b"does not work" in wrong.content
    assert (
        wrong["X-Robots-Tag"] == "noindex, nofollow" and wrong["Referrer-Policy"] == "strict-origin"
    )
    print_slips(arbiter_client, evening)  # printed again: the first slips' links stop working
    assert Client().get(f"/m/{tokens[0]}/").status_code == 404


def test_submissions_are_throttled_per_link_and_capped_in_size(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    player = Client(enforce_csrf_checks=True)
    statuses = [phone_post(player, tokens[0], "1. e4 e5 2. Ke3")[0] for _ in range(ml.PER_LINK + 1)]
    assert statuses[:-1] == [200] * ml.PER_LINK and statuses[-1] == 429
    status, page = phone_post(Client(enforce_csrf_checks=True), tokens[1], "e4 " * 40_000)
    assert status == 413 and "characters of moves are read" in page
    assert not MovesSubmission.objects.exists()


def test_one_browser_sending_both_sides_is_not_agreement_and_the_arbiter_sees_why(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    anyone = Client(
        enforce_csrf_checks=True
    )  # one browser at the board: the opponent, or a passer-by
    phone_post(anyone, tokens[0], ITALIAN)
    status, page = phone_post(anyone, tokens[1], ITALIAN)
    assert status == 200 and "both sides were sent from one device" in page
    assert "agreeing with your opponent" not in page
    assert game(evening, "Anna Smith").moves == ""
    url = f"/c/riverside/arbiter/g/{game(evening, 'Anna Smith').id}/"
    assert (
        arbiter_client.get(url)
        .content.decode()
        .count("waits for the arbiter: both sides were sent from one device")
        == 2
    )
    for language in ("ru", "hy"):
        arbiter_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        with translation.override(language):
            why = translation.gettext(ml.ONE_DEVICE)
        assert why != ml.ONE_DEVICE and arbiter_client.get(url).content.decode().count(why) == 2


def test_a_link_opened_on_another_device_says_it_is_in_use_and_what_it_sends_waits(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    anna, bob = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first = anna.get(f"/m/{tokens[0]}/")
    assert "in use on another device" not in first.content.decode()
    cookie = first.cookies["clubrating_device"]
    assert cookie["path"] == "/m/" and cookie["httponly"] and len(cookie.value) == 22
    assert (
        "in use on another device" in bob.get(f"/m/{tokens[0]}/").content.decode()
    )  # Bob scans Anna's code
    assert "in use on another device" in phone_post(bob, tokens[0], ITALIAN)[1]
    phone_post(bob, tokens[1], ITALIAN)  # and his own: one person vouching for both
    assert game(evening, "Anna Smith").moves == ""
    page = arbiter_client.get(
        f"/c/riverside/arbiter/g/{game(evening, 'Anna Smith').id}/"
    ).content.decode()
    assert "the link is in use on another device, and this was sent from a different one" in page
    assert (
        "stored" in phone_post(anna, tokens[0], "e4 e5 Nf3 Nc6 Bc4 Bc5")[1]
    )  # Anna, from her phone
    assert game(evening, "Anna Smith").moves == f"{ITALIAN} 1-0"


def test_the_arbiter_frees_a_link_in_use_for_the_players_phone(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    Client().get(f"/m/{tokens[0]}/")  # opened by something that is not Anna's phone
    anna = Client(enforce_csrf_checks=True)
    assert "in use on another device" in anna.get(f"/m/{tokens[0]}/").content.decode()
    link = MovesLink.objects.get(player__name="Anna Smith")
    url = f"/c/riverside/arbiter/t/{evening.id}/slips/"
    assert arbiter_client.post(url, {"action": "release", "link": str(link.id)}).status_code == 302
    assert "the next phone that opens it" in arbiter_client.get(url).content.decode()
    assert "in use on another device" not in anna.get(f"/m/{tokens[0]}/").content.decode()
    phone_post(anna, tokens[0], ITALIAN)
    assert "stored" in phone_post(Client(enforce_csrf_checks=True), tokens[1], ITALIAN)[1]
    assert game(evening, "Anna Smith").moves == f"{ITALIAN} 1-0"


def test_a_phone_guessing_links_behind_the_clubs_address_does_not_stop_the_players_valid_links(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    guesser, player = Client(), Client(enforce_csrf_checks=True)  # one Wi-Fi: both are 127.0.0.1
    guesses = [
        guesser.post(f"/m/made-up-token-{n:06d}xyz/", {"moves": "e4"}).status_code
        for n in range(ml.GUESSES)
    ] + [guesser.get("/m/made-up-token-999999xyz/").status_code]
    assert guesses == [404] * ml.GUESSES + [429]  # the guesser is slowed, GETs counted too
    assert (
        "too many moves links that do not work"
        in guesser.post("/m/another-made-up-token/").content.decode().lower()
    )
    assert (
        phone_post(player, tokens[0], ITALIAN)[0] == 200
    )  # a player's valid link works from the same address
    assert "stored" in phone_post(Client(enforce_csrf_checks=True), tokens[1], ITALIAN)[1]
    assert game(evening, "Anna Smith").moves == f"{ITALIAN} 1-0"


def test_an_opponent_spending_a_links_tries_does_not_stop_its_own_player(
    evening: Tournament, arbiter_client: Client
) -> None:
    _, tokens = print_slips(arbiter_client, evening)
    anna, opponent = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    anna.get(f"/m/{tokens[0]}/")  # Anna's phone opens her link first
    statuses = [
        phone_post(opponent, tokens[0], "1. e4 e5 2. Ke3")[0] for _ in range(ml.PER_LINK + 1)
    ]
    assert statuses[-1] == 429 and statuses[:-1] == [200] * ml.PER_LINK
    assert phone_post(anna, tokens[0], ITALIAN)[0] == 200  # her own tries are her own
    assert MovesSubmission.objects.filter(text=ITALIAN).count() == 1


def test_the_log_lines_hide_a_moves_links_token() -> None:
    record = logging.LogRecord(
        "django.request",
        logging.WARNING,
        __file__,
        1,
        "Not Found: %s",
        ("/m/SECRETTOKEN123/",),
        None,
    )
    assert HideMovesTokens().filter(record) and record.getMessage() == "Not Found: /m/…/"
    handlers = logging.getLogger().handlers + logging.getLogger("django.server").handlers
    assert handlers and all(
        any(isinstance(f, HideMovesTokens) for f in h.filters)
        for h in handlers
        if isinstance(h, logging.StreamHandler) and not type(h).__module__.startswith("_pytest")
    )


def test_an_evenings_page_links_to_its_board_slips_once_a_round_is_paired(
    club: Club, arbiter_client: Client
) -> None:
    t = ev.start_evening(
        club, "Friday Swiss", dt.date(2024, 2, 2), 3, who="test", today=dt.date(2024, 2, 2)
    )
    for name in ("Anna Smith", "Bob Jones"):
        ev.register(t, name, who="test")
    accept_exact(t, who="test")
    all_new_members(t, who="test")
    ev.pair_next_round(t, who="test")
    page = arbiter_client.get(f"/c/riverside/arbiter/evening/{t.id}/").content.decode()
    assert f"/c/riverside/arbiter/t/{t.id}/slips/" in page
    slips, tokens = print_slips(arbiter_client, t)
    assert len(tokens) == 2 and "Anna Smith" in slips  # the one board's two players


def test_the_links_list_says_which_links_the_pairing_change_revoked(
    club: Club, arbiter_client: Client
) -> None:
    t = ev.start_evening(
        club, "Friday Swiss", dt.date(2024, 2, 2), 3, who="test", today=dt.date(2024, 2, 2)
    )
    for name in ("Anna Smith", "Bob Jones", "Carl Berg"):
        ev.register(t, name, who="test")
    accept_exact(t, who="test")
    all_new_members(t, who="test")
    ev.pair_next_round(t, who="test")
    print_slips(arbiter_client, t)
    board = t.evening_boards.get()
    ev.withdraw(board.white, who="test")
    pairing_changes.repair_round(t, who="test")
    page = arbiter_client.get(f"/c/riverside/arbiter/t/{t.id}/slips/").content.decode()
    assert (
        page.count("no longer paired together (the pairing changed)") == 2 and "Revoke" not in page
    )
