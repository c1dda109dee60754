import { configure } from '@testing-library/react';

// findBy*/waitFor wait up to 1 s by default; a loaded 2-core machine can take longer to render a page.
configure({ asyncUtilTimeout: 5000 });
