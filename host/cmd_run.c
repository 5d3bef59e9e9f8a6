/* placeholder */
#include "commands.h"
int cmd_run(int argc, char **argv) { (void)argc; (void)argv; return EXIT_USAGE; }
