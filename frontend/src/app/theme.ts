import { createTheme } from '@mui/material';

/**
 * The product's visual identity: a deep teal for care and trust, a warm saffron accent, and Noto Sans (self-hosted,
 * with its Devanagari, Bengali and Telugu families) so names in Indian scripts render the same on every device.
 * Colours are chosen for WCAG AA contrast with white text and on the page background.
 */
export const FONT_STACK = [
  '"Noto Sans"',
  '"Noto Sans Devanagari"',
  '"Noto Sans Bengali"',
  '"Noto Sans Telugu"',
  '"Noto Sans Gujarati"',
  '"Noto Sans Tamil"',
  '"Noto Sans Kannada"',
  '"Noto Sans Malayalam"',
  '"Noto Sans Gurmukhi"',
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  'sans-serif',
].join(', ');

export const BRAND = {
  primary: '#0b6e69',
  primaryDark: '#07524e',
  primaryLight: '#e3f2f0',
  accent: '#b4470a',
  page: '#f4f7f6',
} as const;

/** The product's colours, shared by the app and the admin console. */
export const BRAND_PALETTE = {
  primary: { main: BRAND.primary, dark: BRAND.primaryDark, light: '#3f938e', contrastText: '#ffffff' },
  secondary: { main: BRAND.accent, contrastText: '#ffffff' },
  // MUI's default success and warning greens and oranges fall below 4.5:1 as text; these pass on white.
  success: { main: '#1b7a3a' },
  warning: { main: '#a15c00' },
  error: { main: '#c62828' },
  info: { main: '#0d63a5' },
  background: { default: BRAND.page, paper: '#ffffff' },
  text: { primary: '#16201f', secondary: '#4a5957' },
};

export const theme = createTheme({
  palette: BRAND_PALETTE,
  shape: { borderRadius: 12 },
  typography: {
    fontFamily: FONT_STACK,
    h1: { fontWeight: 700 },
    h2: { fontWeight: 700 },
    h3: { fontWeight: 700, letterSpacing: '-0.02em' },
    h4: { fontWeight: 700, letterSpacing: '-0.01em' },
    h5: { fontWeight: 700 },
    h6: { fontWeight: 600 },
    subtitle1: { fontWeight: 600 },
    subtitle2: { fontWeight: 600 },
    overline: { fontWeight: 600, letterSpacing: '0.08em' },
    button: { fontWeight: 600, textTransform: 'none' },
  },
  components: {
    MuiCard: { defaultProps: { variant: 'outlined' }, styleOverrides: { root: { borderColor: '#dbe4e2' } } },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiChip: { styleOverrides: { root: { fontWeight: 600 } } },
    MuiTab: { styleOverrides: { root: { textTransform: 'none', fontWeight: 600 } } },
    // Keyboard focus is always visible, whatever the component's own focus style.
    MuiButtonBase: {
      styleOverrides: {
        root: { '&.Mui-focusVisible': { outline: `3px solid ${BRAND.accent}`, outlineOffset: 2 } },
      },
    },
    MuiLink: { defaultProps: { underline: 'always' } },
  },
});
