import { configure } from '@testing-library/react';
import { installSelectorFilter } from './selectorFilter';

// findBy*/waitFor wait up to 1 s by default. A loaded 2-core machine can take longer to render a page, and each
// *ByRole attempt walks the whole DOM computing styles, which alone took seconds per attempt on a slow CI machine.
configure({ asyncUtilTimeout: 15_000 });

// Style reads skip the rules that cannot match (see selectorFilter): the same styles, found without running every one of
// MUI's rules through jsdom's selector engine. Without it (another jsdom) the tests run as before, only slower.
installSelectorFilter(document);
