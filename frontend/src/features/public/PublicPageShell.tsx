import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { AppBar, Box, Link, Stack, Toolbar, Typography } from '@mui/material';
import MedicalServicesOutlined from '@mui/icons-material/MedicalServicesOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import { homePathFor, useSession } from '../../lib/session';
import { PRODUCT_NAME } from '@telemed/contracts/constants';
import { useT } from '../../i18n/useT';
import { LanguagePicker } from '../../i18n/LanguagePicker';

/** Header, main landmark and footer (with the seeds' Support Access link) around a public page. */
export function PublicPageShell({ children }: { children: ReactNode }) {
  const session = useSession();
  const t = useT();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default', display: 'flex', flexDirection: 'column' }}>
      <AppBar position="static" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Toolbar sx={{ gap: 1 }}>
          <Stack component={RouterLink} to={session ? homePathFor(session.user) : '/welcome'} direction="row" spacing={1} sx={{ alignItems: 'center', color: 'primary.main', textDecoration: 'none' }}>
            <MedicalServicesOutlined aria-hidden />
            <Typography variant="h6" component="span" sx={{ fontWeight: 700 }}>
              {PRODUCT_NAME}
            </Typography>
          </Stack>
          {/* Every public page (welcome, a doctor's page, an article) offers the ten languages in the header. */}
          <Box sx={{ ml: 'auto' }}>
            <LanguagePicker />
          </Box>
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ flexGrow: 1, width: '100%', maxWidth: 1100, mx: 'auto', p: { xs: 2, sm: 4 } }}>
        {children}
      </Box>
      <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 2, px: { xs: 2, sm: 4 }, bgcolor: 'background.paper' }}>
        <Stack direction="row" spacing={1} sx={{ maxWidth: 1100, mx: 'auto', alignItems: 'center', flexWrap: 'wrap' }}>
          <SupportAgentOutlined fontSize="small" aria-hidden color="action" />
          <Typography variant="body2" color="text.secondary">
            {t.rich('public.supportFooter', {
              link: (chunks) => (
                <Link component={RouterLink} to="/support">
                  {chunks}
                </Link>
              ),
            })}
          </Typography>
        </Stack>
      </Box>
    </Box>
  );
}
