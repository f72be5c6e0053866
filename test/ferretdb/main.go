// Command ferretdb runs an embedded FerretDB 1.24 (a MongoDB wire-protocol server) backed by PostgreSQL.
// Tests use it because no MongoDB server can be installed on our machines; production uses MongoDB 7+.
// Embedding avoids the panic of `go install` of FerretDB's own command (it lacks a version file).
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	pg := flag.String("postgresql-url", "postgres://postgres@127.0.0.1:5432/ferretdb", "PostgreSQL URL")
	flag.Parse()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: *listen},
		Handler:       "postgresql",
		PostgreSQLURL: *pg,
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Printf("ferretdb listening on %s", f.MongoDBURI())
	f.Run(ctx)
}
