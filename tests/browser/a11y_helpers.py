"""Accessibility checks shared by the browser tests: ``axe(page, site_url)`` runs axe-core (from npm, served by
the local site at runtime/axe/axe.min.js) and returns its serious and critical violations as readable lines."""

from __future__ import annotations

BAD = ("serious", "critical")


def axe(page, site_url, context=None):
    """The violations of axe's WCAG 2.x A/AA and best-practice rules, as readable lines (serious and critical)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(url=site_url + "runtime/axe/axe.min.js")
    result = page.evaluate("""async (context) => {
        const r = await axe.run(context || document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(" "))}));
    }""", context)
    return [f"{v['impact']} {v['id']}: {v['help']} -> {v['nodes']}" for v in result if v["impact"] in BAD]
