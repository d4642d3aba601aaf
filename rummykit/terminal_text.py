"""What ``rummykit play`` says, in English and Vietnamese: one catalogue keyed by message id
(``review`` and ``serve`` have their few lines here too).

Each message is a template with ``{placeholders}``; both languages use the same ones (the tests
check). The Vietnamese wording uses the web app's terms (``rummykit/web/i18n/vi.json`` and the
rules pages): *nọc* (stock), *chồng bài bỏ* (discard pile), *bộ* (meld), *sảnh* (run), *bộ cùng
số* (book), *bài rác* (deadwood), *gõ* (knock), *ù Gin* (gin), *gửi bài* (lay off), *hạ bài*
(lay down a contract), *ván* (hand), *vòng* (Crazy Rummy's round), *trận* (match). A few lines
are the web catalogue's own, read from it (:data:`WEB_KEYS`), so the two cannot drift apart.

Move notation (``discard KD``) and the commands ``hint``, ``help`` and ``quit`` are not
translated: they are what the person types back.

>>> say("vi", "pick_number", count=2)
'Hãy chọn một số từ 1 đến 2.'
>>> say("en", "cards", count=1), say("en", "cards", count=3), say("vi", "cards", count=3)
('1 card', '3 cards', '3 lá')
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from typing import Final

from rummykit.players.reasons import LANGUAGES, Language

__all__ = [
    "COMMANDS",
    "LANGUAGES",
    "MESSAGES",
    "WEB_KEYS",
    "Language",
    "default_language",
    "parse_language",
    "say",
    "template",
    "web_text",
]

MESSAGES: Final[dict[str, dict[Language, str]]] = {
    # --------------------------------------------------------------- the person's turn
    "help": {
        "en": (
            "Answer with the number of a move or the move itself, for example:\n"
            "  draw | take | pass | discard KD | knock 9S | layoff 7H 2 | done\n"
            "  meld 7C 7D 7H (Basic Rummy) | down 5H X 2C 8H | 9C 9D 9S | buy | swap 7H 3"
            " (Crazy Rummy)\n"
            "Cards: rank A 2-9 T J Q K (or 10), suit C D H S (or the symbols); X is a joker.\n"
            "  hint   what the computer would do, and why\n"
            "  undo   take back your last move of this turn (a take, a meld, a lay-down, a lay-off"
            " or a swap)\n"
            "  help   this text\n"
            "  quit   stop here (the match so far can still be saved)"
        ),
        "vi": (
            "Trả lời bằng số thứ tự của nước đi, hoặc gõ chính nước đi đó, ví dụ:\n"
            "  draw | take | pass | discard KD | knock 9S | layoff 7H 2 | done\n"
            "  meld 7C 7D 7H (Rummy cơ bản) | down 5H X 2C 8H | 9C 9D 9S | buy | swap 7H 3"
            " (Crazy Rummy)\n"
            "Lá bài: số A 2-9 T J Q K (hoặc 10), chất C D H S (chuồn, rô, cơ, bích; hoặc"
            " ký hiệu); X là Joker.\n"
            "Nước đi: draw rút từ nọc · take lấy lá trên cùng của chồng bài bỏ (hoặc lá ngửa)"
            " · pass bỏ qua\n"
            "  discard KD bỏ K♦ · knock 9S gõ, bỏ 9S · biggin ù Gin lớn · done gửi bài xong\n"
            "  layoff 7H 2 gửi 7H vào bộ 2 · meld hạ bộ · down hạ bài theo yêu cầu của vòng\n"
            "  buy mua lá đang mời · swap 7H 3 đặt 7H vào bộ 3 và lấy lá đại diện\n"
            "  hint   gợi ý: máy sẽ đi nước nào, và vì sao\n"
            "  undo   đi lại: hủy nước vừa đi trong lượt này (lấy lá bỏ, hạ bộ, hạ bài, gửi bài"
            " hoặc đổi lá)\n"
            "  help   trợ giúp: trang này\n"
            "  quit   thoát: dừng ở đây (vẫn lưu được trận đấu đến lúc này)"
        ),
    },
    "prompt_move": {"en": "Your move: ", "vi": "Nước đi của bạn: "},
    "prompt_next_hand": {
        "en": "Press Enter for the next hand (or type review, or quit): ",
        "vi": "Nhấn Enter để sang ván tiếp (hoặc gõ review hoặc xem lại để xem lại, quit để thoát): ",
    },
    "prompt_next_round": {
        "en": "Press Enter for the next round (or type review, or quit): ",
        "vi": "Nhấn Enter để sang vòng tiếp (hoặc gõ review hoặc xem lại để xem lại, quit để thoát): ",
    },
    "prompt_match_over": {
        "en": "Press Enter to finish (or type review): ",
        "vi": "Nhấn Enter để kết thúc (hoặc gõ review hoặc xem lại để xem lại): ",
    },
    "review_head": {
        "en": "Your moves beside the hard computer's: {agreed} of {count} the same or as good.",
        "vi": "Nước đi của bạn so với máy mức khó: {agreed}/{count} giống máy hoặc tốt ngang nhau.",
    },
    "review_none": {
        "en": "You had no decision to make in this hand.",
        "vi": "Ván này bạn không phải quyết định gì.",
    },
    "review_all_same": {
        "en": "Every one of your decisions was the computer's choice or just as good.",
        "vi": "Mọi quyết định của bạn đều giống máy hoặc tốt ngang nhau.",
    },
    "review_held": {"en": "     your hand: {cards}", "vi": "     bài trên tay: {cards}"},
    "review_note": {
        "en": (
            "A different move is not always a mistake: the computer can be wrong too, and it knew"
            " only what you knew then."
        ),
        "vi": (
            "Đi khác máy chưa chắc đã sai: máy cũng có thể nhầm, và máy chỉ biết những gì bạn"
            " biết lúc đó."
        ),
    },
    "stopped": {"en": "Stopped.", "vi": "Đã dừng."},
    "pick_number": {
        "en": "Pick a number from 1 to {count}.",
        "vi": "Hãy chọn một số từ 1 đến {count}.",
    },
    "not_understood": {
        "en": "{detail} (type help for the moves)",
        "vi": "Không hiểu nước đi này (gõ help để xem cách đi). Chi tiết (tiếng Anh): {detail}",
    },
    "setting_error": {
        "en": "{detail}",
        "vi": "Không thực hiện được lệnh. Chi tiết (tiếng Anh): {detail}",
    },
    "illegal": {
        "en": "Not now: {detail}",
        "vi": "{web:error.illegal}. Chi tiết (tiếng Anh): {detail}",
    },
    "hint": {"en": "{web:hint.prefix}", "vi": "{web:hint.prefix}"},
    "undone": {"en": "Taken back: {move}", "vi": "Đã đi lại: {move}"},
    "no_undo": {
        "en": (
            "Nothing to take back: only a move of this turn that showed you no hidden card can"
            " be (a take, a meld, a lay-down, a lay-off, a swap), not a draw from the stock."
        ),
        "vi": (
            "Không có nước nào để đi lại: chỉ đi lại được nước trong lượt này mà không cho bạn"
            " thấy lá úp nào (lấy lá bỏ, hạ bộ, hạ bài, gửi bài, đổi lá), không phải lá rút từ nọc."
        ),
    },
    # --------------------------------------------------------------- seats
    "you": {"en": "{web:seat.you}", "vi": "{web:seat.you}"},
    "computer": {"en": "{web:seat.computer_n}", "vi": "{web:seat.computer_n}"},
    "nobody": {"en": "nobody", "vi": "không ai"},
    # --------------------------------------------------------------- the table
    "game.gin": {"en": "gin", "vi": "{web:game.gin}"},
    "game.rummy": {"en": "rummy", "vi": "{web:game.rummy}"},
    "game.crazy": {"en": "crazy", "vi": "{web:game.crazy}"},
    "header_hand": {"en": "{game} · hand {n} · {scores}", "vi": "{game} · ván {n} · {scores}"},
    "header_round": {
        "en": "{game} · round {n} · {scores}",
        "vi": "{game} · vòng {n} · {scores}",
    },
    "contract_line": {
        "en": "Round {n}: lay down {contract}",
        "vi": "Vòng {n}: hạ bài {contract}",
    },
    "contract.books": {"en": "{count} book", "vi": "{count} bộ cùng số"},
    "contract.books_many": {"en": "{count} books", "vi": "{count} bộ cùng số"},
    "contract.runs": {"en": "{count} run", "vi": "{count} sảnh"},
    "contract.runs_many": {"en": "{count} runs", "vi": "{count} sảnh"},
    "offered": {"en": "Offered: {card}", "vi": "Lá đang được mời: {card}"},
    "piles": {
        "en": "Stock: {stock}   Discard pile: {top}",
        "vi": "Nọc: {stock}   Chồng bài bỏ: {top}",
    },
    "empty": {"en": "empty", "vi": "trống"},
    "cards": {"en": "{count} card", "vi": "{count} lá"},
    "cards_many": {"en": "{count} cards", "vi": "{count} lá"},
    "meld": {"en": "  meld {n}: {cards}", "vi": "  bộ {n}: {cards}"},
    "knock_meld": {"en": "  knocker's meld {n}: {cards}", "vi": "  bộ {n} của người gõ: {cards}"},
    "opponent": {"en": "{name}: {cards}", "vi": "{name}: {cards}"},
    "opponent_known": {
        "en": "{name}: {cards}, known: {known}",
        "vi": "{name}: {cards}, đã lấy từ chồng bài bỏ: {known}",
    },
    "your_hand": {"en": "Your hand: {cards}", "vi": "Bài của bạn: {cards}"},
    "best_melds": {
        "en": "  best melds: {melds}   deadwood {count}",
        "vi": "  bộ tốt nhất: {melds}   bài rác {count}",
    },
    # --------------------------------------------------------------- results
    "hand_over": {"en": "Hand over", "vi": "Ván kết thúc"},
    "round_over": {"en": "Round over", "vi": "Vòng kết thúc"},
    "won_by": {"en": "{outcome}, won by {name}", "vi": "{outcome}, {name} thắng"},
    "outcome.knock": {"en": "knock", "vi": "gõ"},
    "outcome.undercut": {"en": "undercut", "vi": "bắt ngược"},
    "outcome.gin": {"en": "gin", "vi": "ù Gin"},
    "outcome.big_gin": {"en": "big gin", "vi": "ù Gin lớn"},
    "outcome.cancelled": {"en": "cancelled", "vi": "ván bị hủy"},
    "outcome.out": {"en": "out", "vi": "hết bài"},
    "outcome.stalemate": {"en": "stalemate", "vi": "hòa, hết nọc"},
    "outcome.stock_out": {"en": "stock out", "vi": "hết nọc"},
    "outcome.over": {"en": "over", "vi": "kết thúc"},
    "this_hand": {"en": "  this hand: {scores}", "vi": "  ván này: {scores}"},
    "this_round": {"en": "  this round: {scores}", "vi": "  vòng này: {scores}"},
    "totals": {"en": "  totals: {scores}", "vi": "  tổng: {scores}"},
    "final_totals": {
        "en": "  {web:result.match.table}: {scores}",
        "vi": "  {web:result.match.table}: {scores}",
    },
    "game_bonus": {
        "en": "  {web:result.match.game_bonus}: {scores}",
        "vi": "  {web:result.match.game_bonus}: {scores}",
    },
    "box_bonus": {
        "en": "  {web:result.match.box_bonus}: {scores}",
        "vi": "  {web:result.match.box_bonus}: {scores}",
    },
    "shutout": {"en": "  {web:result.match.shutout}", "vi": "  {web:result.match.shutout}"},
    "match_over": {"en": "Match over", "vi": "Trận đấu kết thúc"},
    "match_won": {"en": "{names} won.", "vi": "{names} thắng trận."},
    "match_won_lowest": {
        "en": "{names} won (lowest total wins).",
        "vi": "{names} thắng trận (tổng điểm thấp nhất thắng).",
    },
    # --------------------------------------------------------------- the play command
    "level.easy": {"en": "easy", "vi": "dễ"},
    "level.medium": {"en": "medium", "vi": "vừa"},
    "level.hard": {"en": "hard", "vi": "khó"},
    "welcome": {
        "en": (
            "rummykit {version}: {game} against {count} {level} computer player, seed {seed}."
            " Type help for the moves."
        ),
        "vi": (
            "rummykit {version}: {game}, đấu với {count} máy (mức {level}), --seed {seed}."
            " Gõ help để xem cách đi."
        ),
    },
    "welcome_many": {
        "en": (
            "rummykit {version}: {game} against {count} {level} computer players, seed {seed}."
            " Type help for the moves."
        ),
        "vi": (
            "rummykit {version}: {game}, đấu với {count} máy (mức {level}), --seed {seed}."
            " Gõ help để xem cách đi."
        ),
    },
    "saved_whole": {
        "en": (
            "Record saved to {path} (the whole match). To see your moves beside the computer's:"
            " {command}"
        ),
        "vi": (
            "Đã lưu bản ghi trận đấu vào {path} (cả trận). Để xem lại nước đi của bạn so với máy:"
            " {command} --lang vi"
        ),
    },
    "saved_so_far": {
        "en": (
            "Record saved to {path} (so far). To see your moves beside the computer's: {command}"
        ),
        "vi": (
            "Đã lưu bản ghi trận đấu vào {path} (đến lúc dừng). Để xem lại nước đi của bạn so"
            " với máy: {command} --lang vi"
        ),
    },
    # ------------------------------------------------------------------- rummykit review
    "review_hand": {"en": "Hand {n} · {name} (seat {seat})", "vi": "Ván {n} · {name} (ghế {seat})"},
    "review_round": {
        "en": "Round {n} · {name} (seat {seat})",
        "vi": "Vòng {n} · {name} (ghế {seat})",
    },
    # -------------------------------------------------------------------- rummykit serve
    "serve_in_clear": {
        "en": (
            "Warning: this server is open to the network without encryption. Everything it"
            " sends and receives (the cards, the moves, the seat tokens, the invitation links)"
            " travels unencrypted: anyone on the same Wi-Fi could read it, or use a token or an"
            " unused link to take a seat.\nTo encrypt it, give a certificate and its key:"
            " rummykit serve --certfile cert.pem --keyfile key.pem, or serve on 127.0.0.1 behind"
            " a reverse proxy that has one, such as Caddy:"
            " caddy reverse-proxy --from game.example --to 127.0.0.1:{port}"
        ),
        "vi": (
            "Cảnh báo: máy chủ này mở cho cả mạng truy cập mà không mã hóa. Mọi thứ máy chủ gửi"
            " và nhận (lá bài, nước đi, mã chỗ ngồi, link mời) đều đi qua mạng ở dạng không mã"
            " hóa: bất kỳ ai dùng chung Wi-Fi cũng có thể đọc được, hoặc dùng mã chỗ ngồi hay"
            " link mời chưa ai dùng để chiếm chỗ.\nMuốn mã hóa, hãy đưa chứng chỉ và khóa của nó:"
            " rummykit serve --certfile cert.pem --keyfile key.pem, hoặc chạy máy chủ ở"
            " 127.0.0.1 phía sau một reverse proxy có chứng chỉ, chẳng hạn Caddy:"
            " caddy reverse-proxy --from game.example --to 127.0.0.1:{port}"
        ),
    },
}
"""Every message of the terminal game, by id, per language. ``{web:KEY}`` stands for the web
app's own wording of ``KEY`` in the same language (a text, not a placeholder); a message whose id
has a ``_many`` twin is the singular of a count (see :func:`say`)."""

WEB_KEYS: Final[tuple[str, ...]] = (
    "error.illegal",
    "hint.prefix",
    "seat.you",
    "seat.computer_n",
    "game.gin",
    "game.rummy",
    "game.crazy",
    "result.match.table",
    "result.match.game_bonus",
    "result.match.box_bonus",
    "result.match.shutout",
)
"""The web catalogue's keys the terminal reuses (``{web:KEY}`` in :data:`MESSAGES`)."""

COMMANDS: Final[dict[str, tuple[str, ...]]] = {
    "quit": ("quit", "q", "exit", "thoát", "thoat"),
    "help": ("help", "?", "trợ giúp", "tro giup"),
    "hint": ("hint", "gợi ý", "goi y"),
    "review": ("review", "xem lại", "xem lai"),
    "undo": ("undo", "đi lại", "di lai"),
}
"""What the person may type for each command, in either language (lower case)."""


@cache
def _web(lang: Language) -> dict[str, object]:
    """The web app's catalogue for ``lang`` (shipped in the package with the web files)."""
    text = files("rummykit").joinpath("web", "i18n", f"{lang}.json").read_text("utf-8")
    data: dict[str, object] = json.loads(text)
    return data


def web_text(lang: Language, key: str) -> str:
    """The web catalogue's wording of ``key`` (one of :data:`WEB_KEYS`) in ``lang``."""
    if key not in WEB_KEYS:
        raise KeyError(f"{key!r} is not one of the web texts the terminal uses")
    value = _web(lang).get(key)
    if not isinstance(value, str):
        raise KeyError(f"the web catalogue has no {lang} text for {key!r}")
    return value


def template(lang: Language, message: str) -> str:
    """The template of ``message`` in ``lang``, with the web texts it quotes filled in."""
    text = MESSAGES[message][lang]
    for key in WEB_KEYS:
        marker = "{web:" + key + "}"
        if marker in text:
            text = text.replace(marker, web_text(lang, key))
    return text


def say(lang: Language, message: str, **params: object) -> str:
    """``message`` in ``lang`` with its placeholders filled in.

    With a ``count`` parameter other than 1 and a ``{message}_many`` twin, the twin is used.
    Raises KeyError for an unknown message id or a missing parameter.
    """
    if message not in MESSAGES:
        raise KeyError(f"no terminal message {message!r}")
    many = f"{message}_many"
    if params.get("count", 1) != 1 and many in MESSAGES:
        message = many
    return template(lang, message).format(**params)


def parse_language(value: str) -> Language:
    """``en`` or ``vi`` (any case, spaces around ignored); ValueError naming both otherwise."""
    lang = value.strip().lower()
    for known in LANGUAGES:
        if lang == known:
            return known
    raise ValueError(f"unknown language {value!r} (en or vi)")


def default_language(environ: Mapping[str, str] | None = None) -> Language:
    """``vi`` when the locale (the first set of LC_ALL, LC_MESSAGES, LANG) starts with ``vi``,
    else ``en``."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return "vi" if value.lower().startswith("vi") else "en"
    return "en"
