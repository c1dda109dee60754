/**
 * jsdom computes an element's style by running every rule of every style sheet through its selector engine (nwsapi),
 * and MUI's Emotion styles are hundreds of rules: reading one element's style cost milliseconds, its rules' `:has()`
 * selectors most of all (nwsapi parses those again at each match). Testing Library reads styles for each *ByRole query
 * (is it hidden?) and MUI reads them while rendering (TextareaAutosize), so that was most of the component tests' time.
 *
 * Almost all of those rules name a class their subject must have (`.css-1x2y:hover`, `.MuiInputBase-root:has(...)`):
 * this filter answers "no match" at once for an element without that class, and hands every other rule to nwsapi as
 * before, so every computed style is the same (see selectorFilter.test.tsx), only found sooner. A selector it cannot
 * read simply (escapes, quotes, a part without such a class) always goes to nwsapi.
 */

/** Per part of a selector list, the classes its subject must have; null: some part may match without a class. */
type Requirement = string[][] | null;

const requirements = new Map<string, Requirement>();
const classSets = new Map<string, Set<string>>();

/** `text` split where `at` holds outside brackets and parentheses. */
function splitTopLevel(text: string, at: (char: string) => boolean): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (depth === 0 && at(char)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const isCombinator = (char: string) => /[\s>+~]/.test(char);

function readRequirement(selector: string): Requirement {
  if (/[\\'"]|[^\x20-\x7e\s]/.test(selector)) return null;
  const parts: string[][] = [];
  for (const part of splitTopLevel(selector, (char) => char === ',')) {
    // The subject: the compound after the last combinator (outside :not(), :has(), attribute values).
    const subject = splitTopLevel(part.trim(), isCombinator).at(-1)!;
    const classes: string[] = [];
    let depth = 0;
    for (let i = 0; i < subject.length; i += 1) {
      const char = subject[i]!;
      if (char === '(' || char === '[') depth += 1;
      else if (char === ')' || char === ']') depth -= 1;
      else if (depth === 0 && char === '.') {
        const name = /^-?[_a-zA-Z][\w-]*/.exec(subject.slice(i + 1))?.[0];
        if (!name) return null;
        classes.push(name);
      }
    }
    if (classes.length === 0) return null;
    parts.push(classes);
  }
  return parts;
}

/** The classes an element must have for `selector` to match it (per part of the list), or null when not read off. */
export function requiredClasses(selector: string): Requirement {
  let requirement = requirements.get(selector);
  if (requirement === undefined) {
    requirement = readRequirement(selector);
    requirements.set(selector, requirement);
  }
  return requirement;
}

function classesOf(element: Element): Set<string> {
  const attribute = element.getAttribute('class') ?? '';
  let classes = classSets.get(attribute);
  if (!classes) {
    classes = new Set(attribute.split(/\s+/));
    classSets.set(attribute, classes);
  }
  return classes;
}

interface StyleMatcher {
  match(selector: unknown, element: Element, callback?: unknown): boolean;
}

let installed: { document: Document; matcher: StyleMatcher; original: StyleMatcher['match'] } | null = null;

/**
 * Puts the filter in front of the matcher jsdom uses for style rules (and only for them). False when this jsdom is not
 * one it knows: then styles are computed as they were.
 */
export function installSelectorFilter(document: Document): boolean {
  if (installed?.document === document) return true;
  // Class names match case-insensitively in quirks mode; the filter assumes standards mode.
  if (document.compatMode !== 'CSS1Compat') return false;
  const implSymbol = Object.getOwnPropertySymbols(document).find((symbol) => symbol.description === 'impl');
  const impl = implSymbol ? (document as unknown as Record<symbol, { _nwsapiDontThrow?: StyleMatcher } | undefined>)[implSymbol] : undefined;
  if (!impl) return false;
  // jsdom makes its style matcher on the first style read.
  document.defaultView?.getComputedStyle(document.documentElement);
  const matcher = impl._nwsapiDontThrow;
  if (!matcher || typeof matcher.match !== 'function') return false;
  const original = matcher.match;
  matcher.match = function filtered(this: StyleMatcher, selector, element, callback) {
    const requirement = typeof selector === 'string' ? requiredClasses(selector) : null;
    if (requirement && element && typeof element.getAttribute === 'function') {
      const classes = classesOf(element);
      if (!requirement.some((needed) => needed.every((name) => classes.has(name)))) return false;
    }
    return original.call(this, selector, element, callback);
  };
  installed = { document, matcher, original };
  return true;
}

/** jsdom's own matcher again (to compare with it). */
export function uninstallSelectorFilter(): void {
  if (installed) installed.matcher.match = installed.original;
  installed = null;
}
