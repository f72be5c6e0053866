// Container healthcheck of payment-state: exits 0 when the gRPC health service at the address answers SERVING.
import { healthChecker } from '../lib/grpc.ts';

const checker = healthChecker(process.argv[2] || '127.0.0.1:50051');
const ok = await checker.check(3_000);
checker.close();
process.exit(ok ? 0 : 1);
