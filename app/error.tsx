"use client";

import { PageError } from "@/components/ui/page-error";

// A render error in this part of the app: its frame stays, the page says so (components/ui/page-error.tsx).
export default PageError;
