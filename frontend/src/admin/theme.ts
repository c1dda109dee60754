import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { BRAND, BRAND_PALETTE, FONT_STACK, theme as appTheme } from '../app/theme';

/**
 * react-admin's own theme in the product's colours and type: its default blue app bar gives white text 3.1:1
 * (below WCAG AA), and the console should look like the same product. Wide tables scroll inside their card
 * instead of widening the page on a phone.
 */
export const adminTheme: RaThemeOptions = {
  ...defaultTheme,
  palette: { ...BRAND_PALETTE, secondary: { main: BRAND.primaryDark, contrastText: '#ffffff' } },
  typography: { fontFamily: FONT_STACK, h6: { fontWeight: 600 }, button: { fontWeight: 600, textTransform: 'none' } },
  components: {
    ...defaultTheme.components,
    MuiButtonBase: appTheme.components?.MuiButtonBase,
    MuiLink: { defaultProps: { underline: 'always' } },
    RaDatagrid: { styleOverrides: { root: { '& .RaDatagrid-tableWrapper': { overflowX: 'auto' } } } },
    RaList: { styleOverrides: { root: { minWidth: 0, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { minWidth: 0 } } } },
    // react-admin's layout is `min-width: fit-content`, so one wide table widened the whole page.
    RaLayout: { styleOverrides: { root: { minWidth: 0, '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': { minWidth: 0 } } } },
    // The empty list's 'No … yet' is drawn at half opacity: grey on grey, below AA. Full strength, in the secondary text colour.
    RaEmpty: { styleOverrides: { root: { '& .RaEmpty-message': { opacity: 1, color: '#4a5957' } } } },
    RaShow: { styleOverrides: { root: { minWidth: 0, '& .RaShow-main, & .RaShow-card': { minWidth: 0 } } } },
  },
};

type PageButton = 'first' | 'last' | 'next' | 'previous';

/**
 * The console's theme in a language: on a phone react-admin's pagination leaves MUI its own page buttons, whose names
 * MUI writes in English ('Go to next page'); they get the catalogue's words here, as react-admin's own buttons do.
 */
export function adminThemeIn(pageButtonLabel: (type: PageButton) => string): RaThemeOptions {
  return {
    ...adminTheme,
    components: { ...adminTheme.components, MuiTablePagination: { defaultProps: { getItemAriaLabel: pageButtonLabel } } },
  };
}
