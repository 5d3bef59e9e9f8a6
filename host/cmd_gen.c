/* spmvlab gen: placeholder until the generator lands (replaced in full). */
#include <stdio.h>

#include "commands.h"

int cmd_gen(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "spmvlab gen: the matrix generator is not built in this version.\n");
    return EXIT_USAGE;
}
