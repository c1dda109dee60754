import { configure } from '@testing-library/react';

// findBy*/waitFor wait up to 1 s by default. A loaded 2-core machine can take longer to render a page, and each
// *ByRole attempt walks the whole DOM computing styles, which alone took seconds per attempt on a slow CI machine.
configure({ asyncUtilTimeout: 15_000 });
