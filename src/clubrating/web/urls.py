"""URL routes of the club website.

A club's read-side pages answer under ``/c/<slug>/`` and ``/u/<token>/`` (see
:mod:`clubrating.web.access`); the arbiter's pages under ``/c/<slug>/arbiter/``;
the JSON API under ``/api/``; a board's moves link (the players' phone page) under ``/m/<token>/``.
"""

from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from clubrating.web import (
    api,
    broadcast,
    arbiter,
    arbiters,
    club_settings,
    cpi_views,
    evening,
    fairplay,
    federation,
    health,
    monthly,
    moves,
    moves_links,
    viewer,
    views,
    wall,
)

club_patterns = [
    path("", views.club_page, name="club"),
    path("ratings.csv", views.ratings_csv, name="ratings-csv"),
    path("ratings.json", views.ratings_json, name="ratings-json"),
    path("t/", views.tournament_list, name="tournaments"),
    path("lists/", monthly.month_index, name="monthly-lists"),
    path("lists/<str:month>/", monthly.month_page, name="monthly-list"),
    path("lists/<str:month>.csv", monthly.month_csv, name="monthly-list-csv"),
    path("lists/<str:month>.json", monthly.month_json, name="monthly-list-json"),
    path("t/<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("t/<int:tournament_id>/tournament.trf", views.tournament_trf, name="tournament-trf"),
    path("t/<int:tournament_id>/games.pgn", views.tournament_pgn, name="tournament-pgn"),
    path("t/<int:tournament_id>/live.pgn", broadcast.live_pgn, name="tournament-live"),
    path(
        "t/<int:tournament_id>/round/<int:round_number>.pgn",
        broadcast.round_pgn,
        name="tournament-round-pgn",
    ),
    path("t/<int:tournament_id>/standings.csv", views.tournament_csv, name="tournament-csv"),
    path("t/<int:tournament_id>/print/pairings/", wall.pairings_by_board, name="print-pairings"),
    path("t/<int:tournament_id>/print/names/", wall.pairings_by_name, name="print-names"),
    path("t/<int:tournament_id>/print/wallchart/", wall.wall_chart, name="print-wallchart"),
    path("p/<int:member_id>/", views.player_page, name="player"),
    path("p/<int:member_id>/history.csv", views.player_csv, name="player-csv"),
    path("p/<int:member_id>/history.json", views.player_json, name="player-json"),
    path("p/<int:member_id>/card.csv", views.player_card_csv, name="player-card-csv"),
    path("p/<int:member_id>/card.json", views.player_card_json, name="player-card-json"),
    path("p/<int:member_id>/cpi/", cpi_views.cpi_dashboard, name="player-cpi"),
    path("g/<int:game_id>/", viewer.game_page, name="game"),
    path("g/<int:game_id>/game.pgn", viewer.game_pgn, name="game-pgn"),
]

arbiter_patterns = [
    path("", arbiter.dashboard, name="arbiter"),
    path("rebuild/", arbiter.rebuild_now, name="arbiter-rebuild"),
    path("lists/publish/", monthly.publish, name="arbiter-monthly-publish"),
    path("audit/", arbiter.audit_page, name="arbiter-audit"),
    path("upload/", arbiter.upload, name="arbiter-upload"),
    path("t/<int:tournament_id>/", arbiter.review, name="arbiter-tournament"),
    path("t/<int:tournament_id>/moves/", moves.add_moves, name="arbiter-moves"),
    path("t/<int:tournament_id>/analysis/", moves.analysis_page, name="arbiter-analysis"),
    path("t/<int:tournament_id>/slips/", moves_links.slips_page, name="arbiter-slips"),
    path("g/<int:game_id>/", moves.game_page, name="arbiter-game"),
    path(
        "t/<int:tournament_id>/<slug:action>/",
        arbiter.tournament_action,
        name="arbiter-tournament-action",
    ),
    path("members/", arbiter.members_page, name="arbiter-members"),
    path("members/<slug:action>/", arbiter.member_action, name="arbiter-member-action"),
    path("arbiters/", arbiters.arbiters_page, name="arbiter-arbiters"),
    path("arbiters/<slug:action>/", arbiters.arbiter_action, name="arbiter-arbiter-action"),
    path("privacy/", arbiter.privacy, name="arbiter-privacy"),
    path("settings/", club_settings.settings_page, name="arbiter-settings"),
    path("initial-list/", club_settings.initial_page, name="arbiter-initial"),
    path(
        "initial-list/<slug:action>/", club_settings.initial_action, name="arbiter-initial-action"
    ),
    path("fair-play/", fairplay.fairplay_page, name="arbiter-fair-play"),
    path("evening/", evening.evenings, name="arbiter-evenings"),
    path("evening/<int:tournament_id>/", evening.evening_page, name="arbiter-evening"),
    path("evening/<int:tournament_id>/round/", evening.round_page, name="arbiter-evening-round"),
    path(
        "evening/<int:tournament_id>/<slug:action>/",
        evening.evening_action,
        name="arbiter-evening-action",
    ),
]

api_patterns = [
    path("ratings", api.ratings),
    path("players/<int:member_id>", api.player),
    path("tournaments", api.tournaments),
    path("tournaments/<int:tournament_id>", api.tournament),
]

urlpatterns = [
    path("", views.index, name="index"),
    path("ratings/", federation.rating_list, name="federation"),
    path("robots.txt", views.robots_txt),
    path("healthz", health.healthz, name="healthz"),
    path("sitemap.xml", views.sitemap_xml),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(template_name="web/login.html", next_page="/"),
        name="login",
    ),
    # The language switcher of every page posts here. Without a CSRF token: the anonymous pages are
    # cached for everyone, so they carry none (a token would set a cookie and make each page
    # uncacheable); a forged post can do no more than choose the language a visitor reads.
    path("language/", csrf_exempt(set_language), name="set-language"),
    path("accounts/password_change/", arbiters.change_password, name="password-change"),
    path(
        "accounts/<slug:kind>/<str:uidb64>/<str:token>/",
        arbiters.choose_password,
        name="choose-password",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="/"), name="logout"),
    path("c/<slug:slug>/arbiter/", include(arbiter_patterns)),
    path("c/<slug:slug>/", include(club_patterns)),
    path("u/<slug:token>/", include(club_patterns)),  # token_urlsafe: the slug alphabet
    path(
        "m/<slug:token>/", moves_links.phone_page, name="moves-link"
    ),  # a board's moves link (no club in it)
    path("api/openapi.json", api.openapi, name="openapi"),
    path("api/clubs", api.clubs),
    path("api/c/<slug:slug>/", include(api_patterns)),
    path("api/u/<slug:token>/", include(api_patterns)),
]
