import { useMediaQuery, type Theme } from '@mui/material';
import type { SxProps } from '@mui/material/styles';

/**
 * react-admin's responsive list pattern (its docs' `useMediaQuery` + `SimpleList`): below the `md` breakpoint (a phone,
 * or a tablet held upright) each list is a SimpleList, one record a row of wrapped lines, instead of a Datagrid whose
 * columns scroll sideways inside their card (the users' and projections' tables did so up to 899 px wide, the others
 * below 600). Read on the first render (`noSsr`), so a narrow screen never draws the table first.
 */
export function useNarrowScreen(): boolean {
  return useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
}

/** The class of the console's SimpleLists (react-admin gives them none of their own), for tests and styles. */
export const RECORD_LIST = 'console-record-list';

/** A SimpleList's lines wrap anywhere (a long e-mail address or id) rather than widen the row. */
export const wrappingListSx: SxProps<Theme> = {
  '& .MuiListItemText-primary, & .MuiListItemText-secondary': { overflowWrap: 'anywhere' },
  // react-admin greys the tertiary text by opacity (about 3.4:1 on white); the theme's secondary text reads at 4.5:1 or more.
  '& .RaSimpleList-tertiary': { ml: 1, opacity: 1, color: 'text.secondary' },
};

/** The non-empty parts of a line, joined with a middle dot. */
export const joined = (...parts: Array<string | null | undefined | false>): string => parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' · ');

/** A phone number or date kept on one line (its spaces made non-breaking): it moves to the next line whole. */
export const unbroken = (text: string | null | undefined): string | null => (text ? text.replace(/ /g, '\u00a0') : null);
