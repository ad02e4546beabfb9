/* test/target/target.h: scenarios of the target test image. */
#ifndef TEST_TARGET_H
#define TEST_TARGET_H

int scenario_crash(const char *kind);
int scenario_printlines(void);

#endif /* TEST_TARGET_H */
