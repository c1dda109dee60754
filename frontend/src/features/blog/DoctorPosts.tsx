import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { call } from '../../lib/client';
import { useT } from '../../i18n/useT';

/** The doctor's published articles on their public page, each linking to /blog/{slug}. */
export function DoctorPosts({ doctorId }: { doctorId: string }) {
  const t = useT();
  const posts = useQuery({ queryKey: ['public-blogs', doctorId], queryFn: () => call('listPublicDoctorBlogPosts', { params: { doctor_id: doctorId } }).catch(() => []) });
  if (!posts.data?.length) return null;
  return (
    <Card data-testid="doctor-posts">
      <CardContent>
        <Typography variant="h6" component="h2">
          {t('blog.articles')}
        </Typography>
        <Stack spacing={1.5} sx={{ mt: 1 }}>
          {posts.data.map((post) => (
            <div key={post.id}>
              <Link component={RouterLink} to={`/blog/${post.slug}`} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {post.title}
              </Link>
              <Typography variant="body2" color="text.secondary">
                {t('blog.articleLine', { date: post.date, minutes: post.read_time })}
              </Typography>
            </div>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
