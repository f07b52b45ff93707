"""Starting a campaign from the web: the new campaign page (a built-in map, or a generated
one previewed before it is chosen, and the campaign's options) and the join page that an
invitation link opens. The forms check what was typed; the services decide."""

import secrets
from dataclasses import dataclass
from functools import cache
from random import randint
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.validators import RegexValidator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods

from accounts.models import User
from campaign.display.mapsvg.render import render_map
from campaign.forms import WholeNumberField
from campaign.maps import BUILTIN_MAPS, load_builtin_map
from campaign.models import KINGDOM_NAME_LENGTH, WEEKDAYS, Campaign, default_deadlines
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.rules.hexmap import HexMap, map_to_json
from campaign.rules.mapgen import MIN_SIZE
from campaign.rules.optional.rule import OptionRow
from campaign.rules.options import OPTION_ROWS, offered, switched_on
from campaign.services import members, setup
from campaign.services.common import ServiceError
from config.ratelimit import too_many_posts, too_often

TEMPLATE = "campaign/new.html"
MAX_SIZE = 1200  # hexes: a generated map larger than this is more than a phone can show
MAX_SEED = 2**31 - 1
DEADLINE_KINDS = {
    "setup": "Setup",
    "orders": "Orders",
    "battles": "Battles",
    "winter": "Winter",
    "turn": "One kingdom's turn (capitals, cycle orders)",
}
# Kingdom colours offered to a new player: the first not taken is the form's default.
PALETTE = (
    "#c0392b", "#2e6fd1", "#2e9e4f", "#d4a017",
    "#6a1b9a", "#e67e22", "#00838f", "#6d4c41",
)  # fmt: skip
SEE_THE_MAP = (
    "Here is the map these choices make: create the campaign if you like it, or try another seed."
)


# --- the maps offered -------------------------------------------------------------------------


@dataclass(frozen=True)
class MapChoice:
    """A built-in map as the new campaign page offers it."""

    name: str
    title: str
    description: str
    min_kingdoms: int
    max_kingdoms: int
    hexes: int


@cache
def builtin_maps() -> tuple[MapChoice, ...]:
    return tuple(
        MapChoice(
            name,
            info.title,
            info.description,
            info.min_kingdoms,
            info.max_kingdoms,
            len(load_builtin_map(name).tiles),
        )
        for name, info in BUILTIN_MAPS.items()
    )


def bare_map_svg(hexmap: HexMap, title: str) -> str:
    """The map alone: its terrain, no kingdom and no unit."""
    return render_map({"name": title, "map": map_to_json(hexmap)}, kingdoms={}, moves=())


@cache
def thumbnail(name: str) -> str:
    """A built-in map drawn once per process: the maps never change while it runs."""
    return bare_map_svg(load_builtin_map(name), BUILTIN_MAPS[name].title)


@require_GET
@cache_control(max_age=24 * 3600)
def map_thumbnail(request: HttpRequest, name: str) -> HttpResponse:
    if name not in BUILTIN_MAPS:
        return HttpResponse("No such map.", status=404, content_type="text/plain")
    return HttpResponse(thumbnail(name), content_type="image/svg+xml")


@dataclass(frozen=True)
class Preview:
    """A generated map, shown before it is chosen."""

    kingdoms: int
    size: int | None
    seed: int
    svg: str
    hexes: int
    starts: int

    @property
    def key(self) -> str:
        """What was previewed: the page creates the campaign only once these choices
        have been seen as a map."""
        return preview_key(self.kingdoms, self.size, self.seed)


def preview_key(kingdoms: int, size: int | None, seed: int) -> str:
    return f"{kingdoms}:{size or ''}:{seed}"


def preview_of(kingdoms: int, size: int | None, seed: int) -> Preview:
    hexmap = setup.generated_map(kingdoms=kingdoms, seed=seed, size=size)
    return Preview(
        kingdoms=kingdoms,
        size=size,
        seed=seed,
        svg=bare_map_svg(hexmap, "the generated map"),
        hexes=len(hexmap.tiles),
        starts=len(hexmap.start_tiles()),
    )


# --- the new campaign page ------------------------------------------------------------------


def _hours(kind: str) -> forms.IntegerField:
    """The hours a kind of step waits. A turn's may be left empty: it then has the default."""
    return WholeNumberField(
        required=kind != "turn",
        min_value=1,
        max_value=setup.MAX_DEADLINE_HOURS,
        initial=default_deadlines()[kind],
        label=f"{DEADLINE_KINDS[kind]} (hours)",
        error_messages={"invalid": "Give the hours as a whole number."},
    )


class MapForm(forms.Form):
    """The choices that make a generated map: the preview's form."""

    kingdoms = WholeNumberField(
        min_value=setup.MIN_KINGDOMS,
        max_value=setup.MAX_KINGDOMS,
        initial=4,
        label="Kingdoms",
        help_text="How many players: 2 to 8.",
        error_messages={"invalid": "Give the number of kingdoms as a whole number."},
    )
    size = WholeNumberField(
        required=False,
        min_value=MIN_SIZE,
        max_value=MAX_SIZE,
        label="Size in hexes",
        help_text=f"About {setup.HEXES_PER_KINGDOM} per kingdom if left blank; the map "
        "grows if its start tiles need room.",
        error_messages={"invalid": "Give the size as a whole number of hexes."},
    )
    seed = WholeNumberField(
        min_value=0,
        max_value=MAX_SEED,
        label="Seed",
        help_text="Another seed, another map, and other dice.",
        error_messages={"invalid": "Give the seed as a whole number."},
    )


MOST_RADIOS = 4  # an option with more choices is asked with a list


def _option_field(row: OptionRow) -> forms.Field:
    """The form's field for one campaign option, from its row of the options table."""
    if row.switch:
        rules = f"{reverse('campaign:rules')}#option-{row.name}"
        words = format_html('{} <a href="{}">Its rules</a>.', row.words, rules)
        return forms.BooleanField(label=row.label, help_text=words, required=False)
    if row.choices:
        return forms.ChoiceField(
            label=row.label,
            widget=forms.RadioSelect if len(row.choices) <= MOST_RADIOS else forms.Select,
            choices=list(row.choices.items()),
            initial=row.default,
            help_text=row.words,
            required=not row.needs,  # a rule's setting: its default unless chosen
        )
    return WholeNumberField(
        min_value=row.low,
        max_value=row.high,
        initial=row.default,
        label=row.label,
        help_text=row.words,
    )


class NewCampaignForm(MapForm):
    """A new campaign: its name and map, a field for each row of the options table (the
    seed is the map's), deadlines, and who may read it."""

    name = forms.CharField(max_length=120, label="Name", strip=True)
    map_name = forms.ChoiceField(
        label="Map",
        widget=forms.RadioSelect,
        choices=[
            *((name, info.title) for name, info in BUILTIN_MAPS.items()),
            ("generated", "A generated map"),
        ],
        initial="generated",
        error_messages={"invalid_choice": "Choose one of the maps offered."},
    )
    setup_hours = _hours("setup")
    orders_hours = _hours("orders")
    battles_hours = _hours("battles")
    winter_hours = _hours("winter")
    turn_hours = _hours("turn")
    deadline_days = forms.TypedMultipleChoiceField(
        label="Deadlines fall on",
        coerce=int,
        choices=list(enumerate(WEEKDAYS)),
        widget=forms.CheckboxSelectMultiple,
        initial=list(range(len(WEEKDAYS))),
        help_text="A deadline due on another day moves to the same time on the next of these.",
        error_messages={"required": "Choose at least one day."},
    )
    public = forms.BooleanField(
        required=False,
        label="Public: anyone may read the map, might and chronicle",
        help_text="Orders, plans and battles stay with the players.",
    )
    letters = forms.ChoiceField(
        label="Letters between kingdoms",
        choices=Campaign.Letters.choices,
        initial=Campaign.Letters.ON,
        required=False,  # letters, unless the form says otherwise
        widget=forms.RadioSelect,
    )
    previewed = forms.CharField(required=False, widget=forms.HiddenInput)
    # This form, drawn once: posted again (Back, then Create) it finds the campaign it made.
    key = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for row in offered():
            self.fields.setdefault(row.name, _option_field(row))

    @property
    def option_fields(self) -> list[forms.BoundField]:
        """The options as "How it is played" asks them (the seed is asked with the map)."""
        return [self[row.name] for row in offered() if row.name != "seed"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        info = BUILTIN_MAPS.get(cleaned.get("map_name", ""))
        kingdoms = cleaned.get("kingdoms")
        if info and kingdoms and not info.min_kingdoms <= kingdoms <= info.max_kingdoms:
            self.add_error(
                "kingdoms",
                f"{info.title} is for {info.min_kingdoms} to {info.max_kingdoms} kingdoms.",
            )
        return cleaned


def _new_page(
    request: HttpRequest,
    form: forms.Form,
    *,
    preview: Preview | None = None,
    problem: str = "",
    status: int = 200,
) -> HttpResponse:
    """The new campaign page; for htmx (the Preview button) only its map preview."""
    context = {
        "form": form,
        "preview_problem": problem,
        "maps": builtin_maps(),
        "preview": preview,
        "hours_fields": [form[f"{kind}_hours"] for kind in DEADLINE_KINDS],
        "zone": request.user.time_zone if isinstance(request.user, User) else "UTC",
    }
    return page_or_fragment(request, TEMPLATE, context, fragment="preview", status=status)


def _form_error(form: forms.Form, error: ServiceError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


@login_required
@require_http_methods(["GET", "POST"])
def new_campaign(request: HttpRequest) -> HttpResponse:
    """The form; "Preview" draws the generated map it describes (htmx does it in place),
    and a generated map is created only once it has been shown as previewed."""
    assert isinstance(request.user, User)
    if request.method == "GET":
        fresh = {"seed": randint(1, 99_999), "key": secrets.token_urlsafe(16)}
        return _new_page(request, NewCampaignForm(initial=fresh))
    form = NewCampaignForm(request.POST)
    if not form.is_valid():
        return _new_page(request, form, status=400)
    choice = form.cleaned_data
    made = setup.made_from(choice["key"], request.user)
    if made is not None:  # Back, then Create again: one campaign, not two
        messages.info(request, f"This form made {made.name} already: here it is.")
        return redirect("campaign:dashboard", slug=made.slug)
    if choice["map_name"] == "generated":
        key = preview_key(choice["kingdoms"], choice["size"], choice["seed"])
        if "preview" in request.POST or choice["previewed"] != key:
            rate = too_often(request, "preview", settings.PREVIEW_RATE_LIMIT)
            if rate is not None:
                return too_many_posts(
                    request, rate, "map previews asked from here, so it was not drawn"
                )
            try:
                preview = preview_of(choice["kingdoms"], choice["size"], choice["seed"])
            except ServiceError as error:
                _form_error(form, error)
                return _new_page(request, form, status=400)
            if "preview" not in request.POST:
                messages.info(request, SEE_THE_MAP)
            return _new_page(request, form, preview=preview)
    elif "preview" in request.POST:
        return _new_page(request, form)
    rate = too_often(request, "new-campaign", settings.NEW_CAMPAIGN_RATE_LIMIT)
    if rate is not None:
        return too_many_posts(request, rate, "new campaigns made from here, so it was not made")
    try:
        campaign = setup.campaign_create(
            name=choice["name"],
            admin=request.user,
            kingdoms=choice["kingdoms"],
            map_name=choice["map_name"],
            size=choice["size"],
            options={row.name: choice[row.name] for row in offered() if choice[row.name] != ""},
            deadlines={
                kind: choice[f"{kind}_hours"]
                for kind in DEADLINE_KINDS
                if choice[f"{kind}_hours"] is not None
            },
            deadline_days=choice["deadline_days"],
            public=choice["public"],
            letters=choice["letters"] or Campaign.Letters.ON,
            key=choice["key"],
        )
    except ServiceError as error:
        _form_error(form, error)
        return _new_page(request, form, status=400)
    messages.success(
        request,
        f"{campaign.name} is open for players: share its invitation link. You may rule a "
        "kingdom in it too.",
    )
    return redirect("campaign:dashboard", slug=campaign.slug)


@login_required
@require_GET
def preview_map(request: HtmxHttpRequest) -> HttpResponse:
    """The generated map that `kingdoms`, `size` and `seed` make. For htmx, the preview
    alone; otherwise the new campaign page with those choices and the map. Each is a
    map generated and drawn: at most PREVIEW_RATE_LIMIT a player."""
    rate = too_often(request, "preview", settings.PREVIEW_RATE_LIMIT)
    if rate is not None:
        return too_many_posts(request, rate, "map previews asked from here, so it was not drawn")
    form = MapForm(request.GET)
    preview, problem = None, ""
    if form.is_valid():
        try:
            preview = preview_of(
                form.cleaned_data["kingdoms"], form.cleaned_data["size"], form.cleaned_data["seed"]
            )
        except ServiceError as error:
            problem = error.message
    else:
        problem = " ".join(str(e) for errors in form.errors.values() for e in errors)
    page = NewCampaignForm(initial={**request.GET.dict(), "map_name": "generated"})
    return _new_page(request, page, preview=preview, problem=problem)


# --- joining --------------------------------------------------------------------------------


class ColourInput(forms.TextInput):
    """A colour picker. It always holds a colour, so HTML gives it neither `required` nor
    `maxlength`; the field's pattern checks what is posted."""

    input_type = "color"

    def use_required_attribute(self, initial: object) -> bool:
        return False


class JoinForm(forms.Form):
    kingdom_name = forms.CharField(
        max_length=KINGDOM_NAME_LENGTH,
        label="Your kingdom's name",
        strip=True,
    )
    colour = forms.CharField(
        label="Its colour",
        widget=ColourInput,
        validators=[RegexValidator(r"^#[0-9a-fA-F]{6}$", "Give the colour as #rrggbb.")],
    )
    heraldry = forms.CharField(
        label="Its heraldry letter",
        max_length=1,
        strip=True,
        required=False,
        help_text="Shown with the colour on its tiles and armies. Left empty: the first letter "
        "of its name that no other kingdom bears.",
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "size": 2}),
    )

    def clean_heraldry(self) -> str:
        letter = str(self.cleaned_data["heraldry"]).upper()
        if letter and not letter.isalnum():
            raise forms.ValidationError("Heraldry is a letter or a digit.")
        return letter


def _what_comes(campaign: Campaign, user: User) -> str:
    """After joining: whether more kingdoms are to join, or who starts the campaign now."""
    if campaign.memberships.exclude(kingdom="").count() < campaign.kingdoms:
        return "The campaign starts when every kingdom has joined."
    if campaign.memberships.filter(user=user, is_admin=True).exists():
        return "Every kingdom has joined: start the campaign from its dashboard."
    return "Every kingdom has joined: the campaign starts when its admin starts it."


def _free_colour(taken: set[str]) -> str:
    return next((c for c in PALETTE if c not in taken), PALETTE[0])


@dataclass(frozen=True)
class CampaignFacts:
    """What someone invited reads before joining."""

    map: str
    options: dict[str, Any]
    orders: str
    battles: str
    optional_rules: list[OptionRow]
    letters: str
    deadlines: list[tuple[str, int]]
    days: str


def _chosen(campaign: Campaign, name: str) -> str:
    """The words of the campaign's choice for one option (its default's if unknown)."""
    row = OPTION_ROWS[name]
    chosen = campaign.options.get(name, row.default)
    return row.choices.get(chosen) or row.choices[str(row.default)]


def facts_of(campaign: Campaign) -> CampaignFacts:
    info = BUILTIN_MAPS.get(campaign.map_name)
    hexes = len(campaign.map.get("tiles", []))
    days = campaign.deadline_days
    return CampaignFacts(
        map=f"{info.title if info else 'A generated map'}, {hexes} hexes",
        options=campaign.options,
        orders=_chosen(campaign, "orders"),
        battles=_chosen(campaign, "battles"),
        optional_rules=switched_on(campaign.options),
        letters=campaign.get_letters_display(),
        deadlines=[
            (label, campaign.deadlines.get(kind, 0)) for kind, label in DEADLINE_KINDS.items()
        ],
        days="any day"
        if len(days) == len(WEEKDAYS)
        else ", ".join(WEEKDAYS[d] for d in sorted(days)),
    )


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    """An invitation: the campaign's options and a kingdom to take. A signed-out visitor
    signs in (or up) first and comes back here. An unknown or replaced code, a started or
    full campaign, a player already in it or removed from it: each is told, and nothing
    changes."""
    assert isinstance(request.user, User)
    try:
        campaign = members.campaign_for_code(code)
    except ServiceError:
        return render(request, "campaign/join.html", {"invalid": True}, status=404)
    refusal = members.join_refusal(campaign, request.user)
    players = list(campaign.memberships.exclude(kingdom="").select_related("user"))
    form = JoinForm(
        request.POST if request.method == "POST" else None,
        initial={"colour": _free_colour({p.colour.lower() for p in players})},
    )
    status = 200
    if request.method == "POST":
        status = 400
        if refusal is None and form.is_valid():
            try:
                members.campaign_join(campaign=campaign, user=request.user, **form.cleaned_data)
            except ServiceError as error:
                for each in error.every:  # every field's refusal at once
                    if each.field in form.fields:
                        form.add_error(each.field, each.message)
                    else:
                        refusal = each
            else:
                messages.success(
                    request,
                    f"You rule {form.cleaned_data['kingdom_name']} in {campaign.name}. "
                    + _what_comes(campaign, request.user),
                )
                return redirect("campaign:campaign", slug=campaign.slug)
    context = {
        "campaign": campaign,
        "facts": facts_of(campaign),
        "players": players,
        "refusal": refusal,
        "form": form,
    }
    return render(request, "campaign/join.html", context, status=status)


@require_GET
def join_with_code(request: HttpRequest) -> HttpResponse:
    """The home page's "Join with a code": the code, or the whole link pasted, to its
    invitation."""
    text = request.GET.get("code", "").strip().rstrip("/")
    code = "".join(c for c in text.rsplit("/", 1)[-1] if c.isalnum() or c in "-_")
    if not code:
        messages.error(request, "Type the join code from your invitation.")
        return redirect("campaign:home")
    return redirect("campaign:join", code=code)


urlpatterns: list[URLPattern] = [
    path("new/", new_campaign, name="new"),
    path("new/preview/", preview_map, name="new_preview"),
    path("new/maps/<slug:name>.svg", map_thumbnail, name="map_thumbnail"),
    path("join/", join_with_code, name="join_with_code"),
    path("join/<str:code>/", join, name="join"),
]
