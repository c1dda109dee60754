import type { ElementType } from 'react';
import { Typography, type TypographyProps } from '@mui/material';

/** One line of text cut with an ellipsis when it does not fit; the whole text is on hover (title). */
export function TruncatedText({ text, component = 'span', sx, ...props }: { text: string; component?: ElementType } & Omit<TypographyProps, 'children' | 'noWrap'>) {
  return (
    <Typography component={component} noWrap title={text} sx={[{ minWidth: 0, display: 'block' }, ...(Array.isArray(sx) ? sx : [sx])]} {...props}>
      {text}
    </Typography>
  );
}
