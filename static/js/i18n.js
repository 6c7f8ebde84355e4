/* The one i18n helper of the pages: the words in the user's language.
 *
 * The translations come from Django's JavaScript catalog (/jsi18n/, ``django.views.i18n.
 * JavaScriptCatalog``): a classic script the templates load before the modules, which defines
 * ``django.gettext``, ``django.ngettext``… on ``globalThis``. A page without it (the stream
 * overlay, whose words come translated with the page) shows the English msgid. The catalog is read
 * when a word is asked for, not when this module loads.
 *
 * Every call names its words as literal strings at the call itself (no variables, no joins), so
 * that ``makemessages -d djangojs`` finds them (and polo/tests/test_translations.py checks them).
 */

const catalog = () => globalThis.django || {};

export function gettext(msgid) {
  const django = catalog();
  return django.gettext ? django.gettext(msgid) : msgid;
}

export function ngettext(singular, plural, count) {
  const django = catalog();
  return django.ngettext ? django.ngettext(singular, plural, count) : (count === 1 ? singular : plural);
}

/* A word whose translation depends on where it is shown ("Play" the event, not the verb). */
export function pgettext(context, msgid) {
  const django = catalog();
  return django.pgettext ? django.pgettext(context, msgid) : msgid;
}

/* Django's interpolate(), without the catalog: "%(name)s" from an object, or "%s" in turn from an
 * array. */
export function interpolate(text, values) {
  if (Array.isArray(values)) {
    const list = values.slice();
    return text.replace(/%s/g, () => String(list.shift()));
  }
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
}
