import { Link } from 'wouter';
import { TriangleExclamationPoint } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Any path the router does not know (docs/rules/screens-buyer.md, Routes and headers). */
export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <main id="main" className="flex min-h-dvh items-center justify-center bg-muted/50 px-4">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col gap-4 p-6">
          <div className="flex items-center gap-3">
            <TriangleExclamationPoint className="size-8 shrink-0 text-destructive" aria-hidden="true" />
            <h1 className="text-2xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="text-muted-foreground">Did you forget to add the page to the router?</p>
          <Button asChild variant="outline" className="self-start">
            <Link href="/">Go to the home page</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
