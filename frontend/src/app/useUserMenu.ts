import { useEffect, useRef, useState } from 'react';

/**
 * The header's user menu: whether it is open, and the button it hangs from as it is now. Crossing the phone
 * breakpoint, even for a moment (a zoom, a rotation, a window resized), swaps the desktop header for the phone's and
 * back, which puts a new button element in its place: a menu anchored to the element that was clicked would then hang
 * off a detached node and hand focus back to it, that is to nobody (<body>), and a keyboard user would lose their
 * place. So the menu follows whichever button is there and, once closed, gives focus back to that one (rather than
 * MUI's node remembered at opening).
 */
export function useUserMenu() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement | null>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) wasOpen.current = true;
    else if (wasOpen.current) {
      wasOpen.current = false;
      button.current?.focus();
    }
  }, [open]);
  return { open, setOpen, button };
}

export type UserMenuState = ReturnType<typeof useUserMenu>;
