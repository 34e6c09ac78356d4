// The page's elements and the small helpers every part of the dashboard script uses. Runs in the browser only.

/** The element with this id; the page's markup (`dashboard-page.ts`) has every one the script asks for. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id)
  if (node === null) throw new Error(`The dashboard has no #${id}`)
  return node as T
}

/** A new element with a class and text (any value, shown as a string). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: unknown): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  if (className) node.className = className
  if (text !== undefined) node.textContent = String(text)
  return node
}

/** Said to screen readers (the polite live region). */
export function announce(text: string): void {
  byId('announce').textContent = text
}

/** An ISO 8601 instant as `2030-12-05 10:00:00 UTC`. */
export function utc(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : '–'
}

/** An ISO 8601 instant's time of day, `10:00:00`. */
export function hms(iso: string | null | undefined): string {
  return iso ? iso.slice(11, 19) : '–'
}

/** Adds an option to a select unless it has one of that value already. */
export function addOption(select: HTMLSelectElement, value: string, title?: string): void {
  for (const option of select.options) if (option.value === value) return
  const option = el('option', '', value)
  if (title) option.title = title
  select.appendChild(option)
}

/** A control of a form by name (the fault form's fields). */
export function field(form: HTMLFormElement, name: string): HTMLInputElement | HTMLSelectElement {
  return form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement
}
