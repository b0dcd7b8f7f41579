// Sections of `spring demo`, one file each.
#ifndef SPRING_TOOLS_DEMO_H
#define SPRING_TOOLS_DEMO_H
int demo_chains(void);
#endif
