"""What the table shows of the moves (a part of ``controller.App``): each player's last move, the moments (a noble
won, the final round, the end), the full view of a player, the brief highlight of a bot's move, and what the moves
moved for the page's animations. Pure Python."""

from . import words



class TableNews:
    """Part of ``controller.App`` (which holds the state these methods read and change)."""

    def _motion_of(self, action, seat):
        """What ``action`` (about to be applied) moves on the table, for the page's animations: tokens between the
        supply and a seat, a card from the market, a deck or a reserve to a seat; and the market place a new card
        will be dealt to, as (level, slot). Codes of hidden cards are never given (the page could show them)."""
        g = self.game
        k = action.kind
        moves, dealt = [], None
        if k in ("take", "take_two"):
            colors = list(action.colors) * (2 if k == "take_two" else 1)
            moves.append({"kind": "tokens", "colors": colors, "from": "supply", "to": seat})
        elif k == "return":
            moves.append({"kind": "tokens", "colors": [action.colors[0]], "from": seat, "to": "supply"})
        elif k in ("reserve", "buy"):
            card = action.card
            row = g.market[card.level - 1] if card is not None else ()
            if card is None:
                moves.append({"kind": "card", "from": "deck", "level": action.level, "to": seat})
            elif card in row:
                moves.append({"kind": "card", "code": card.code, "from": "market", "to": seat})
                dealt = (card.level, row.index(card))
            else:
                mine = seat == self.person or "open_reservations" in g.variants
                hidden = dict(zip(g.players[seat].reserved, g.players[seat].reserved_hidden)).get(card, False)
                moves.append({"kind": "card", "code": card.code if mine or not hidden else None, "from": "reserve",
                              "to": seat})
            if k == "reserve" and g.supply["gold"]:
                moves.append({"kind": "tokens", "colors": ["gold"], "from": "supply", "to": seat})
            if k == "buy":
                paid = [c for c, n in action.payment.items() for _ in range(n)]
                if paid:
                    moves.append({"kind": "tokens", "colors": paid, "from": seat, "to": "supply"})
        return moves, dealt

    def take_changes(self):
        """The moves applied since the last call, for the page to animate (then forgotten)."""
        out, self.changes = self.changes, []
        return out

    def _person_moves_again(self, seat):
        """Whether the person still has a turn in the round that ``seat`` has just played in."""
        g = self.game
        n = g.players_count
        return (self.solo and not g.is_over and seat != self.person
                and (self.person - g.start) % n > (seat - g.start) % n)

    def on_inspect(self, data):
        """Open the full view of a player: every bought card by bonus, reserves, nobles, tokens."""
        try:
            seat = int(data.get("seat", -1))
        except (TypeError, ValueError):
            return
        if self.game is not None and 0 <= seat < self.game.players_count:
            self.selected = None
            self.confirming = None
            self.inspecting = seat

    def on_moment_ok(self, data):
        self.moment = None

    def _moment(self, kind, text, seat):
        """A moment about ``seat`` (its banner must not cover that player's panel)."""
        self.moment_serial += 1
        self.moment = {"kind": kind, "text": text, "n": self.moment_serial, "seat": seat}

    def last_moves(self):
        """Each seat's latest turn in words (its log lines since its turn began, without the name), kept until
        that seat moves again: ``{seat: "Took white, blue and green."}``. Read from the log, so undo and reload
        keep it right."""
        out = {}
        prev = None
        for e in self.log:
            if e.get("kind") != "move" or e.get("seat") is None:
                continue
            seat = e["seat"]
            text = e["text"]
            name = self.log_name(seat) + " " if 0 <= seat < len(self.seats) else ""
            if name and text.startswith(name):
                text = text[len(name):]
            text = text[:1].upper() + text[1:]
            out[seat] = (out[seat] + " " + text) if prev == seat and seat in out else text
            prev = seat
        return {seat: words.merge_returns(text) for seat, text in out.items()}

    def _flash_of(self, action, seat):
        """What a bot's action touches, to highlight it briefly: piles, a market slot or a deck, the seat."""
        g = self.game
        flash = {"seat": seat, "kind": action.kind, "colors": list(action.colors), "slot": None, "deck": None,
                 "text": ""}
        if action.kind in ("buy", "reserve"):
            if action.card is None:
                flash["deck"] = action.level
            else:
                row = g.market[action.card.level - 1]
                if action.card in row:
                    flash["slot"] = [action.card.level, row.index(action.card)]
            if action.kind == "buy":
                flash["colors"] = [c for c, n in action.payment.items() if n]
            elif g.supply["gold"]:
                flash["colors"] = ["gold"]
        flash["text"] = words.describe_move(g, action, self.name(seat), seat, person=self._you(seat))
        flash["short"] = words.short_move(action, self.name(seat))  # (the status line: view.status_text)
        return flash

    def _check_selection(self):
        """Close the card dialog if a bot's move took that card from under the person's finger."""
        s = self.selected
        if not s or s["where"] == "deck":
            return
        g = self.game
        if s["where"] == "market":
            here = g.market[s["level"] - 1][s["slot"]]
            still = here is not None and here.code == s["code"]
        else:
            mine = g.players[self.person].reserved
            still = s["index"] < len(mine) and mine[s["index"]].code == s["code"]
        if not still:
            self.selected = None
            self.confirming = None
            self.gold_for = {}
            self.message = "The card you were looking at has left the market."
