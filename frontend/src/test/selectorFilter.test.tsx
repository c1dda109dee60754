import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { Box, Button, Collapse, Dialog, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { installSelectorFilter, requiredClasses, uninstallSelectorFilter } from './selectorFilter';

afterEach(() => {
  cleanup();
  document.head.querySelectorAll('style[data-test-rules]').forEach((style) => style.remove());
});

/** Every element's computed style (all properties, and the resolved ones Testing Library reads), in document order. */
function allStyles(): string[] {
  // Any change to the document empties jsdom's style cache: each pass computes afresh.
  document.documentElement.setAttribute('data-pass', String(Math.random()));
  return [...document.querySelectorAll('*')].map((element) => {
    const style = getComputedStyle(element);
    return `${element.tagName}.${element.getAttribute('class') ?? ''} ${style.cssText} display:${style.display} visibility:${style.visibility}`;
  });
}

/** The styles without the filter (the test setup installs it), then with it. */
function withAndWithout(): { without: string[]; with: string[] } {
  uninstallSelectorFilter();
  const without = allStyles();
  expect(installSelectorFilter(document)).toBe(true);
  return { without, with: allStyles() };
}

describe('the style rule filter', () => {
  it('reads the classes a selector requires of its subject, and gives up where it cannot be sure', () => {
    expect(requiredClasses('.css-1x2y')).toEqual([['css-1x2y']]);
    expect(requiredClasses('.a.b:hover')).toEqual([['a', 'b']]);
    expect(requiredClasses('.a > .b')).toEqual([['b']]);
    expect(requiredClasses('.a .b::before, .c:not(.d)')).toEqual([['b'], ['c']]);
    expect(requiredClasses('.MuiInputBase-root:has(> .css-18x85q0 ~ .MuiInputAdornment-root)')).toEqual([['MuiInputBase-root']]);
    expect(requiredClasses('.a[data-x=y] + .b[data-z]')).toEqual([['b']]);
    expect(requiredClasses('.a, div')).toBeNull();
    expect(requiredClasses('.a :is(.b, .c)')).toBeNull();
    expect(requiredClasses('.a .b\\:c')).toBeNull();
    expect(requiredClasses('.a[title="x.y"]')).toBeNull();
    expect(requiredClasses('*')).toBeNull();
  });

  it('computes the same style for every element as jsdom does without it, for plain rules and tricky ones', () => {
    const style = document.createElement('style');
    style.setAttribute('data-test-rules', '');
    style.textContent = `
      .x { display: none } .y .x { color: red } .a.b:not(.c) { visibility: hidden } .p > .q, section { color: blue }
      .r:has(> .s) { display: flex } .t:has(.u) .v { color: green } div:not(.w) { padding: 1px } .A { color: teal }
      [class~="k"] { margin: 2px } .m + .n, .m ~ .o { border: 1px solid } :is(.e, .f) { color: olive }
      @media screen { .g { display: none } }`;
    document.head.appendChild(style);
    document.body.innerHTML = `
      <div class="y"><span class="x">1</span><span class="a b">2</span><span class="a b c">3</span></div>
      <div class="p"><i class="q">4</i></div><section>5</section><div class="r"><b class="s">6</b></div>
      <div class="t"><em class="u"></em><p class="v">7</p></div><div class="w"></div><div class="a">8</div>
      <div class="k"></div><div class="m"></div><div class="n"></div><div class="o"></div><div class="e"></div><div class="g"></div>`;
    const { without, with: filtered } = withAndWithout();
    expect(filtered).toEqual(without);
  });

  it('computes the same style for every element of MUI components (Emotion rules, :has() included)', () => {
    render(
      <>
        <Box sx={{ display: { xs: 'none', md: 'block' } }}>desktop only</Box>
        <TextField label="Title" />
        <TextField label="Notes" multiline minRows={2} />
        <TextField select label="Status" value="draft">
          <MenuItem value="draft">Draft</MenuItem>
        </TextField>
        <Collapse in={false}>
          <Button>collapsed</Button>
        </Collapse>
        <Dialog open>
          <DialogTitle>Delete post</DialogTitle>
          <DialogContent>
            <Button variant="contained">Delete</Button>
          </DialogContent>
        </Dialog>
      </>,
    );
    const { without, with: filtered } = withAndWithout();
    expect(without.length).toBeGreaterThan(30);
    expect(filtered).toEqual(without);
  });
});
