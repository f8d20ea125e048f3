"""Building the person's move before it is final (a part of ``controller.App``): gems picked, a card's dialog with its
price and gold, the confirm step, tokens to return, the noble to welcome or remove; each refusal in words. Pure
Python."""

from ...engine import COLORS, Action, card_from_code, noble_from_code
from . import words



class Staging:
    """Part of ``controller.App`` (which holds the state these methods read and change)."""

    def _refuse_unless_my_turn(self, phases=("action",)):
        g = self.game
        if g is None:
            return "Start a game first."
        if g.is_over:
            return "The game is over."
        if self.handover is not None:
            return f"Pass the device to {self.name(self.handover)} first."
        if g.current_player != self.person:
            return f"Wait: it is {self.name(g.current_player)}'s turn."
        if g.phase not in phases:
            return {
                "return": "First return tokens: you hold more than 10.",
                "noble": "First choose which noble visits you.",
                "veto": "First remove a noble: each player removes one before the game starts.",
                "action": "That is not possible now.",
            }[g.phase]
        return None

    def on_gem(self, data):
        color = data.get("color")
        g = self.game
        if g is not None and g.phase == "return" and g.current_player == self.person:
            self.on_return({"color": color})
            return
        reason = self._refuse_unless_my_turn()
        if reason:
            self.message = reason
            return
        self.flash = None
        self.selected = None
        self.confirming = None
        if color == "gold":
            self.message = "Gold cannot be taken: you get one when you reserve a card."
            return
        if color not in COLORS:
            self.message = "That is not a gem color."
            return
        supply = g.supply
        picked = self.picked
        if picked == [color, color]:
            self.picked = []
            self.message = ""
            return
        if color in picked:
            if picked == [color]:
                if supply[color] >= 4:
                    self.picked = [color, color]
                    self.message = ""
                else:
                    # (short: on a phone it takes the prompt's line in the move box, which keeps its height)
                    self.message = f"Two {color} need 4 in the pile; it holds {supply[color]}."
                return
            picked.remove(color)
            self.message = ""
            return
        if supply[color] == 0:
            self.message = f"The {color} pile is empty."
            return
        if len(picked) == 2 and picked[0] == picked[1]:
            self.message = (f"Taking two {picked[0]} is the whole action. Tap {picked[0]} again to clear it "
                            "first.")
            return
        if len(picked) >= 3:
            self.message = "Take at most three gems of different colors."
            return
        picked.append(color)
        self.message = ""

    def pick_action(self):
        """The take the staged gems make, or None when they do not make one yet."""
        p = self.picked
        if not p:
            return None
        if len(p) == 2 and p[0] == p[1]:
            return Action.take_two(p[0])
        return Action.take(*[c for c in COLORS if c in p])

    def pick_problem(self):
        """Why the staged gems are not a legal take yet (None when they are)."""
        a = self.pick_action()
        if a is None:
            return "Tap gems to take: three different colors, or the same color twice."
        reason = self.game.why_illegal(a)
        if reason is None:
            return None
        if a.kind == "take":
            avail = sum(1 for c in COLORS if self.game.supply[c])
            need = min(3, avail)
            if len(a.colors) < need:
                more = need - len(a.colors)
                # One line on a phone: the action bar keeps its height while a take is built.
                text = f"Pick {words.plural(more, 'more color')}"
                if len(a.colors) == 1 and self.game.supply[a.colors[0]] >= 4:
                    text += f", or {a.colors[0]} again"  # two of one color: from a pile of 4 or more
                elif need < 3:
                    text += f" (only {avail} colors have tokens)"
                return text + "."
        return reason[0].upper() + reason[1:] + "."

    def on_unpick(self, data):
        """Put back one staged gem (its chip in the action bar)."""
        color = data.get("color")
        if color in self.picked:
            self.picked.remove(color)
        self.message = ""

    def on_clear(self, data):
        self.picked = []
        self.returning = []
        self.staged = None
        self.message = ""

    def on_take(self, data):
        reason = self._refuse_unless_my_turn()
        if reason:
            self.message = reason
            return
        problem = self.pick_problem()
        if problem:
            self.message = problem
            return
        self._commit([self.pick_action()])

    def on_card(self, data):
        """Open the dialog of a market card, a reserved card or a deck."""
        g = self.game
        if g is None:
            return
        where = data.get("where")
        try:
            level = int(data.get("level", 0))
            slot = int(data.get("slot", data.get("index", 0)))
        except (TypeError, ValueError):
            return
        if where == "market":
            if not (1 <= level <= 3 and 0 <= slot < 4) or g.market[level - 1][slot] is None:
                return
            self.selected = {"where": "market", "level": level, "slot": slot,
                             "code": g.market[level - 1][slot].code}
        elif where == "reserved":
            mine = g.players[self.person].reserved
            if not 0 <= slot < len(mine):
                return
            self.selected = {"where": "reserved", "index": slot, "code": mine[slot].code}
        elif where == "deck":
            if not 1 <= level <= 3:
                return
            self.selected = {"where": "deck", "level": level}
        else:
            return
        self.gold_for = {}
        self.confirming = None
        self.flash = None
        self.message = ""

    def selected_card(self):
        s = self.selected
        if not s or s["where"] == "deck":
            return None
        return card_from_code(s["code"])

    def on_close(self, data):
        self.selected = None
        self.confirming = None
        self.gold_for = {}
        self.inspecting = None

    def buy_payment(self, card):
        """The tokens the person will pay for ``card``: own colors first, gold for the rest, then any gold the
        person chose to spend instead of a color. A dict over the six token colors."""
        g = self.game
        pay = g.default_payment(card, self.person)
        mine = g.players[self.person].tokens
        for color, n in self.gold_for.items():
            n = max(0, min(n, pay[color], mine["gold"] - pay["gold"]))
            pay[color] -= n
            pay["gold"] += n
        return pay

    def gold_swap_limits(self, card):
        """For each color: (gold now spent instead of it, whether one more gold can replace it)."""
        pay = self.buy_payment(card)
        spare = self.game.players[self.person].tokens["gold"] - pay["gold"]
        return {c: (self.gold_for.get(c, 0), pay[c] > 0 and spare > 0) for c in COLORS}

    def on_gold(self, data):
        """Spend one more (``step`` +1) or one fewer (-1) gold instead of ``color`` in the buy dialog."""
        card = self.selected_card()
        color = data.get("color")
        if card is None or color not in COLORS:
            return
        step = 1 if str(data.get("step", "1")) == "1" else -1
        now, more = self.gold_swap_limits(card)[color]
        if step > 0 and not more:
            self.message = f"No spare gold to pay instead of {color}."
            return
        self.gold_for[color] = max(0, now + step)
        self.confirming = None
        self.message = ""

    def buy_problem(self, card):
        reason = self._refuse_unless_my_turn()
        if reason:
            return reason
        g = self.game
        if not g.can_afford(card, self.person):
            price = g.price(card, self.person)
            mine = g.players[self.person].tokens
            short = sum(max(0, price[c] - mine[c]) for c in COLORS) - mine["gold"]
            return f"You are {words.plural(short, 'token')} short."
        why = g.why_illegal(Action.buy(card, self.buy_payment(card)))
        return (why[0].upper() + why[1:] + ".") if why else None

    def reserve_problem(self):
        reason = self._refuse_unless_my_turn()
        if reason:
            return reason
        s = self.selected
        g = self.game
        if s is None:
            return "Choose a card first."
        if s["where"] == "reserved":
            return "This card is already yours."
        if len(g.players[self.person].reserved) >= 3:
            return "You already hold 3 reserved cards: buy one to free a place."
        if s["where"] == "deck" and g.deck_sizes[s["level"] - 1] == 0:
            return f"The level {s['level']} deck is empty."
        return None

    def on_buy(self, data):
        card = self.selected_card()
        if card is None:
            return
        problem = self.buy_problem(card)
        if problem:
            self.message = problem
            return
        self._stage_or_commit([Action.buy(card, self.buy_payment(card))])

    def on_reserve(self, data):
        s = self.selected
        problem = self.reserve_problem()
        if problem:
            self.message = problem
            return
        action = Action.reserve(level=s["level"]) if s["where"] == "deck" else Action.reserve(self.selected_card())
        self._stage_or_commit([action])

    def _stage_or_commit(self, actions):
        if self.settings.get("confirm", False):
            self.confirming = actions
            self.message = ""
        else:
            self._commit(actions)

    def on_confirm(self, data):
        if self.confirming:
            self._commit(self.confirming)
        elif self.staged is not None:
            self._commit([self.staged])
        elif self.returning:
            self.on_give_back(data)
        elif self.picked:
            self.on_take(data)

    def on_cancel(self, data):
        """Step back: from the confirm step to the dialog, or clear what is staged."""
        if self.confirming:
            self.confirming = None
        else:
            self.on_close(data)
            self.on_clear(data)

    def return_needed(self):
        g = self.game
        if g is None or g.phase != "return" or g.current_player != self.person:
            return 0
        return g.players[self.person].token_count - 10

    def on_return(self, data):
        """Stage one of the person's tokens to return (tap again on a staged one: see on_unreturn)."""
        color = data.get("color")
        reason = self._refuse_unless_my_turn(("return",))
        if reason:
            self.message = reason
            return
        mine = self.game.players[self.person].tokens
        need = self.return_needed()
        if color not in mine:
            return
        if self.returning.count(color) >= mine[color]:
            self.message = f"You hold no more {color} to return."
            return
        if len(self.returning) >= need:
            self.message = (f"Return exactly {words.plural(need, 'token')}. Tap a token in the list to take it "
                            "back.")
            return
        self.returning.append(color)
        self.message = ""
        self.hint = None  # (a hint was for the tokens still to choose: this changes them)

    def on_unreturn(self, data):
        color = data.get("color")
        if color in self.returning:
            self.returning.remove(color)
            self.hint = None
        self.message = ""

    def on_give_back(self, data):
        need = self.return_needed()
        if not need:
            return
        if len(self.returning) != need:
            self.message = f"Choose {words.plural(need - len(self.returning), 'more token')} to return."
            return
        self._commit([Action.return_token(c) for c in self.returning])

    def on_noble(self, data):
        """Tap a noble: welcome it (noble phase) or remove it (veto phase)."""
        g = self.game
        try:
            noble = noble_from_code(str(data.get("code", "")))
        except ValueError:
            return
        if g is None or g.is_over or g.current_player != self.person or g.phase not in ("noble", "veto"):
            if g is not None and not g.is_over:
                self.message = ("Nobles come by themselves at the end of a turn when your bonuses meet their "
                                "needs.") if g.phase == "action" else self._refuse_unless_my_turn(("noble", "veto"))
            return
        action = Action.choose_noble(noble) if g.phase == "noble" else Action.veto(noble)
        why = g.why_illegal(action)
        if why:
            self.message = why[0].upper() + why[1:] + "."
            return
        self.staged = action
        self.message = ""

    def on_pass(self, data):
        reason = self._refuse_unless_my_turn()
        if reason:
            self.message = reason
            return
        if self.game.why_illegal(Action.pass_turn()) is not None:
            self.message = "You can only pass when no other move is possible."
            return
        self._commit([Action.pass_turn()])
